import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** Pending deliveries per sink and the age of the oldest, asked only when the metrics are scraped. */
export type QueueCounter = () => Promise<{ sink: string; depth: number; oldestSeconds: number }[]>;

/**
 * The notifier's metrics, per sink (name and type). Names are stable: deploy/ alert rules refer to them
 * (docs/notifier.md lists them).
 */
export class NotifierMetrics {
  readonly registry = new Registry();
  private countQueue: QueueCounter | null = null;
  private readonly knownSinks = new Set<string>();

  readonly sent = new Counter({
    name: 'tokencircuit_notifier_deliveries_sent_total',
    help: 'Notifications a sink accepted (2xx).',
    labelNames: ['sink', 'sink_type'] as const,
    registers: [this.registry],
  });
  readonly failed = new Counter({
    name: 'tokencircuit_notifier_deliveries_failed_total',
    help: 'Failed delivery attempts, by outcome: retriable (will be retried), permanent (refused for good), exhausted (last attempt).',
    labelNames: ['sink', 'sink_type', 'outcome'] as const,
    registers: [this.registry],
  });
  readonly deadLettered = new Counter({
    name: 'tokencircuit_notifier_dead_letters_total',
    help: 'Notifications parked in the notifier DLQ (never delivered).',
    labelNames: ['sink', 'sink_type'] as const,
    registers: [this.registry],
  });
  readonly skipped = new Counter({
    name: 'tokencircuit_notifier_deliveries_skipped_total',
    help: 'Steps a sink has no message for (e.g. an acknowledgement to Alertmanager).',
    labelNames: ['sink', 'sink_type'] as const,
    registers: [this.registry],
  });
  readonly enqueued = new Counter({
    name: 'tokencircuit_notifier_deliveries_enqueued_total',
    help: 'Deliveries recorded in notifier_deliveries (a redelivered step is not counted again).',
    labelNames: ['sink'] as const,
    registers: [this.registry],
  });
  readonly latency = new Histogram({
    name: 'tokencircuit_notifier_delivery_duration_seconds',
    help: 'Duration of one delivery attempt (request to response or failure).',
    labelNames: ['sink', 'sink_type'] as const,
    buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [this.registry],
  });
  readonly steps = new Counter({
    name: 'tokencircuit_notifier_steps_consumed_total',
    help: 'Episode steps read from the episodes topic (or table, embedded).',
    registers: [this.registry],
  });
  readonly undecodable = new Counter({
    name: 'tokencircuit_notifier_steps_undecodable_total',
    help: 'Records on the episodes topic that were not an episode step (skipped, logged).',
    registers: [this.registry],
  });
  readonly breakerOpen = new Gauge({
    name: 'tokencircuit_notifier_circuit_open',
    help: '1 while a sink circuit breaker is open or half-open (its deliveries wait), else 0.',
    labelNames: ['sink'] as const,
    registers: [this.registry],
  });
  readonly queueDepth: Gauge = new Gauge({
    name: 'tokencircuit_notifier_queue_depth',
    help: 'Deliveries pending per sink (counted when scraped).',
    labelNames: ['sink'] as const,
    registers: [this.registry],
    collect: async () => {
      const queue = await this.queue();
      if (queue === null) return;
      for (const sink of this.knownSinks) this.queueDepth.set({ sink }, queue.get(sink)?.depth ?? 0);
    },
  });
  readonly oldestPending: Gauge = new Gauge({
    name: 'tokencircuit_notifier_oldest_pending_seconds',
    help: 'Age of the oldest pending delivery per sink (counted when scraped).',
    labelNames: ['sink'] as const,
    registers: [this.registry],
    collect: async () => {
      const queue = await this.queue();
      if (queue === null) return;
      for (const sink of this.knownSinks) this.oldestPending.set({ sink }, queue.get(sink)?.oldestSeconds ?? 0);
    },
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry, prefix: 'tokencircuit_notifier_' });
  }

  /** Gives the sinks their series from the start (0, not absent) and the queue counter. */
  watch(sinks: readonly string[], counter: QueueCounter): void {
    for (const sink of sinks) {
      this.knownSinks.add(sink);
      this.breakerOpen.set({ sink }, 0);
    }
    this.countQueue = counter;
  }

  private async queue(): Promise<Map<string, { depth: number; oldestSeconds: number }> | null> {
    if (this.countQueue === null) return null;
    const rows = await this.countQueue().catch(() => null);
    if (rows === null) return null;
    for (const row of rows) this.knownSinks.add(row.sink);
    return new Map(rows.map((r) => [r.sink, r]));
  }
}
