import type { Logger } from 'pino';
import type { LogOffsets } from './agent-event-source.port.js';

/** What the watch last saw of one partition. */
export interface PartitionView {
  readonly partition: number;
  /** The broker's high watermark (next offset to be written). */
  readonly high: bigint;
  /** The Postgres checkpoint (next offset to apply), last known; null before the group applied anything. */
  readonly checkpoint: bigint | null;
  /** Records written and not yet applied: high watermark minus checkpoint (or minus the log start). */
  readonly lag: bigint;
}

/**
 * Measures lag from the broker's high watermark and the Postgres checkpoints on a timer, not from the
 * batches the consumer finishes: a partition whose chunk fails on every retry commits nothing, and a lag
 * derived from commits would stand still and look healthy. When the database cannot be read, the last
 * checkpoints it gave are used, so the lag still grows with every record written.
 */
export class PartitionWatch {
  private views = new Map<number, PartitionView>();
  private checkpoints = new Map<number, bigint>();
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly logOffsets: () => Promise<readonly LogOffsets[]>,
    private readonly readCheckpoints: () => Promise<ReadonlyMap<number, bigint>>,
    private readonly log: Logger,
    private readonly onSample: (views: ReadonlyMap<number, PartitionView>) => void = () => undefined,
  ) {}

  start(intervalMs: number): void {
    const tick = () =>
      void this.sample().catch((error: unknown) => this.log.warn({ err: error }, 'partition watch failed'));
    tick();
    this.timer = setInterval(tick, intervalMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** The last sample, per partition. */
  get partitions(): ReadonlyMap<number, PartitionView> {
    return this.views;
  }

  async sample(): Promise<ReadonlyMap<number, PartitionView>> {
    try {
      this.checkpoints = new Map(await this.readCheckpoints());
    } catch (error) {
      this.log.warn({ err: error }, 'checkpoints unreadable; lag computed from the last ones read');
    }
    const offsets = await this.logOffsets();
    const views = new Map<number, PartitionView>();
    for (const { partition, high, low } of offsets) {
      const checkpoint = this.checkpoints.get(partition) ?? null;
      const lag = high - (checkpoint ?? low);
      views.set(partition, { partition, high, checkpoint, lag: lag < 0n ? 0n : lag });
    }
    this.views = views;
    this.onSample(views);
    return views;
  }
}
