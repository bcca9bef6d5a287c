import type { InterventionData } from '@tokencircuit/contracts';

/** Interventions of this run kept for late waiters: the decision can be faster than the await. */
const KEPT = 500;

interface Waiter {
  readonly eventId: string;
  readonly resolve: (intervention: InterventionData | null) => void;
}

/** Matches arriving interventions to the calls waiting for them, by causing event id. */
export class InterventionInbox {
  private readonly recent: InterventionData[] = [];
  private readonly waiters = new Set<Waiter>();

  deliver(intervention: InterventionData): void {
    this.recent.push(intervention);
    if (this.recent.length > KEPT) this.recent.shift();
    for (const waiter of [...this.waiters]) {
      if (intervention.causingEventIds.includes(waiter.eventId)) {
        this.waiters.delete(waiter);
        waiter.resolve(intervention);
      }
    }
  }

  waitFor(eventId: string, budgetMs: number): Promise<InterventionData | null> {
    const known = this.recent.find((intervention) => intervention.causingEventIds.includes(eventId));
    if (known !== undefined) return Promise.resolve(known);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiters.delete(waiter);
        resolve(null);
      }, budgetMs);
      const waiter: Waiter = {
        eventId,
        resolve: (intervention) => {
          clearTimeout(timer);
          resolve(intervention);
        },
      };
      this.waiters.add(waiter);
    });
  }

  /** Releases every waiter with "nothing arrived" (the governor is closing). */
  drain(): void {
    for (const waiter of [...this.waiters]) waiter.resolve(null);
    this.waiters.clear();
  }
}
