import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { BatchResult } from '@tokencircuit/projection';

/** Prometheus metrics of one projector process (own registry: several apps may share a process when embedded). */
export class ProjectorMetrics {
  readonly registry = new Registry();
  private readonly events = new Counter({
    name: 'tokencircuit_projector_events_total',
    help: 'Records handled, by event type and outcome (projected, duplicate, already_applied, dead_lettered).',
    labelNames: ['type', 'outcome'] as const,
    registers: [this.registry],
  });
  private readonly deadLetters = new Counter({
    name: 'tokencircuit_projector_dlq_total',
    help: 'Records sent to the dead-letter topic, by reason code.',
    labelNames: ['code'] as const,
    registers: [this.registry],
  });
  private readonly batchSize = new Histogram({
    name: 'tokencircuit_projector_batch_size',
    help: 'Records per projector transaction (the chunks of every partition fetched together).',
    buckets: [1, 10, 50, 100, 250, 500, 1000, 2000, 5000, 10_000, 50_000],
    registers: [this.registry],
  });
  private readonly batchDuration = new Histogram({
    name: 'tokencircuit_projector_batch_duration_seconds',
    help: 'Time to project one transaction (the chunks of every partition fetched together), commit included.',
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [this.registry],
  });
  private readonly lag = new Gauge({
    name: 'tokencircuit_projector_consumer_lag',
    help: "Records between the Postgres checkpoint and the broker's high watermark, per partition (sampled on a timer, so it grows while nothing commits).",
    labelNames: ['partition'] as const,
    registers: [this.registry],
  });
  /** Read at scrape time from the event source (see watchStuck), so it is never a timer tick stale. */
  private stuckSource: () => ReadonlyMap<number, number> = () => new Map();
  private readonly stuckPartitions = new Set<number>();
  private readonly stuck = new Gauge({
    name: 'tokencircuit_projector_stuck_seconds',
    help: 'Seconds the oldest failing chunk of each partition has been retried; 0 when the partition is not failing.',
    labelNames: ['partition'] as const,
    registers: [this.registry],
    collect: () => {
      const now = this.stuckSource();
      for (const partition of now.keys()) this.stuckPartitions.add(partition);
      for (const partition of this.stuckPartitions) {
        this.stuck.set({ partition: String(partition) }, now.get(partition) ?? 0);
      }
    },
  });
  /** Read at scrape time from the event source (see watchParking). */
  private parkingSource: () => ReadonlyMap<number, unknown> = () => new Map();
  private readonly parkingPartitions = new Set<number>();
  private readonly parkingStuck = new Gauge({
    name: 'tokencircuit_projector_parking_stuck',
    help: 'Partitions paused because a record could not be parked after every attempt (1), with the reason in /health/ready; 0 otherwise.',
    labelNames: ['partition'] as const,
    registers: [this.registry],
    collect: () => {
      const now = this.parkingSource();
      for (const partition of now.keys()) this.parkingPartitions.add(partition);
      for (const partition of this.parkingPartitions) {
        this.parkingStuck.set({ partition: String(partition) }, now.has(partition) ? 1 : 0);
      }
    },
  });
  private readonly truncated = new Gauge({
    name: 'tokencircuit_projector_dlq_truncated_total',
    help: 'Dead letters parked truncated because the dead-letter topic refused the whole copy (raise its max.message.bytes).',
    registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry, prefix: 'tokencircuit_projector_' });
  }

  recordBatch(result: BatchResult, records: number, lags: ReadonlyMap<number, bigint>, durationMs: number): void {
    for (const [type, count] of result.eventsByType) this.events.inc({ type, outcome: 'projected' }, count);
    if (result.duplicates) this.events.inc({ type: 'any', outcome: 'duplicate' }, result.duplicates);
    if (result.alreadyApplied) this.events.inc({ type: 'any', outcome: 'already_applied' }, result.alreadyApplied);
    for (const dl of result.deadLettered) {
      this.events.inc({ type: 'invalid', outcome: 'dead_lettered' });
      this.deadLetters.inc({ code: dl.code });
    }
    this.batchSize.observe(records);
    this.batchDuration.observe(durationMs / 1000);
    for (const [partition, lag] of lags) this.lag.set({ partition: String(partition) }, Number(lag));
  }

  recordLag(partition: number, lag: bigint): void {
    this.lag.set({ partition: String(partition) }, Number(lag));
  }

  /** Where stuck seconds come from; `partitions` are reported (as 0) even before they ever fail. */
  watchStuck(stuckSeconds: () => ReadonlyMap<number, number>, partitions: Iterable<number>): void {
    this.stuckSource = stuckSeconds;
    for (const partition of partitions) this.stuckPartitions.add(partition);
  }

  /** Where partitions stuck on parking come from; `partitions` are reported (as 0) before any is. */
  watchParking(stuck: () => ReadonlyMap<number, unknown>, partitions: Iterable<number>): void {
    this.parkingSource = stuck;
    for (const partition of partitions) this.parkingPartitions.add(partition);
  }

  recordTruncated(total: number): void {
    this.truncated.set(total);
  }
}
