import { setImmediate } from 'node:timers/promises';
import type { Logger } from 'pino';
import type { DecisionMetrics } from './decision-metrics.js';
import type { OutboxRelay, RelayRound } from './outbox-relay.js';

/**
 * Runs relay rounds one at a time: a wake-up during a round schedules exactly one more, and rounds repeat
 * while they come back full, so a burst drains without waiting for the next notification. A wake-up that
 * names outbox ids (a commit's notifications) claims just those rows; one that names none (the poll timer,
 * start-up) sweeps the whole pending index, which is what catches rows whose notification was missed.
 */
export class DecisionLoop {
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = false;
  private consecutiveFailures = 0;
  private readonly notified = new Set<string>();
  private sweepDue = true;

  constructor(
    private readonly relay: OutboxRelay,
    private readonly metrics: DecisionMetrics,
    private readonly batchSize: number,
    private readonly log: Logger,
    /** Told of each round's interventions (the services' own traces, @tokencircuit/tracing); never awaited. */
    private readonly onPublished?: (published: RelayRound['published'], startedAt: number) => Promise<void>,
  ) {}

  wake = (ids?: readonly string[]): void => {
    if (this.stopped) return;
    if (ids === undefined || ids.length === 0) this.sweepDue = true;
    else for (const id of ids) this.notified.add(id);
    // Ids wait in memory only while a round runs; past a few batches (relay failing for a while) a sweep
    // covers them all at a bounded cost instead.
    if (this.notified.size > this.batchSize * 4) {
      this.notified.clear();
      this.sweepDue = true;
    }
    this.kick();
  };

  private kick(): void {
    if (this.running) {
      this.again = true;
      return;
    }
    // A commit's notifications arrive one per row, parsed from one socket read in one tick: started at the
    // first, a round claimed that row alone and the rest waited for the next round. One macrotask later
    // they are all in, and the commit's rows make one round.
    this.running = setImmediate()
      .then(() => this.drain())
      .finally(() => {
        this.running = null;
        if (this.again && !this.stopped) {
          this.again = false;
          this.kick();
        }
      });
  }

  /** Resolves once no round runs and none is scheduled: what a caller waits on after a wake-up it caused. */
  async settled(): Promise<void> {
    while (this.running) await this.running;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.running;
  }

  private async drain(): Promise<void> {
    for (;;) {
      if (this.stopped) return;
      const sweep = this.sweepDue;
      const only = sweep ? undefined : this.takeNotified();
      if (only !== undefined && only.length === 0) return;
      this.sweepDue = false; // before the round: a wake-up without ids during it asks for another sweep
      try {
        const startedAt = Date.now();
        const round = await this.relay.round(only);
        this.consecutiveFailures = 0;
        this.metrics.recordRound(round);
        if (this.onPublished && round.published.length > 0) void this.onPublished(round.published, startedAt);
        for (const row of round.parked) {
          this.log.error({ outboxId: row.id, tenant: row.tenant, reason: row.reason }, 'outbox row parked');
        }
        if (round.published.length) this.log.debug({ published: round.published.length }, 'interventions published');
        // A full sweep may have left more behind (a backlog from before start-up): keep sweeping.
        if (sweep && round.claimed === this.batchSize) this.sweepDue = true;
      } catch (error) {
        this.consecutiveFailures += 1;
        this.metrics.failures.inc();
        this.log.error({ err: error, consecutiveFailures: this.consecutiveFailures }, 'relay round failed; will retry');
        // The rows stay pending: the next round sweeps for them, after a bounded back-off so a broker or
        // database outage is not hammered (the poll timer wakes us again too).
        this.sweepDue = true;
        await new Promise((resolve) => setTimeout(resolve, Math.min(5_000, 100 * 2 ** this.consecutiveFailures)));
        return;
      }
    }
  }

  private takeNotified(): string[] {
    const ids: string[] = [];
    for (const id of this.notified) {
      if (ids.length === this.batchSize) break;
      ids.push(id);
      this.notified.delete(id);
    }
    return ids;
  }
}
