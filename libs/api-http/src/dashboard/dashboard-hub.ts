import type { LiveSignal } from './live-signal.js';

export type LiveListener = (signal: LiveSignal) => void;

/** Fans live signals out to the open event streams of their tenant only. */
export class DashboardHub {
  private readonly listeners = new Map<string, Set<LiveListener>>();

  subscribe(tenant: string, listener: LiveListener): () => void {
    const set = this.listeners.get(tenant) ?? new Set<LiveListener>();
    set.add(listener);
    this.listeners.set(tenant, set);
    return () => {
      set.delete(listener);
      if (set.size === 0) this.listeners.delete(tenant);
    };
  }

  publish(signal: LiveSignal): void {
    for (const listener of this.listeners.get(signal.tenant) ?? []) {
      try {
        listener(signal);
      } catch {
        // One broken stream must not keep the signal from the others (its close handler unsubscribes it).
      }
    }
  }

  get streams(): number {
    let count = 0;
    for (const set of this.listeners.values()) count += set.size;
    return count;
  }
}
