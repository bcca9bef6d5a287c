import { decode, type Decoded } from './decode.js';
import type { InboundRecord } from './inbound-record.js';
import type { PositionedEvent } from './positioned-event.js';
import type { BatchResult, ProjectionPipeline } from './projection-pipeline.js';

interface Waiting {
  readonly items: readonly Decoded[];
  readonly partitions: ReadonlySet<number>;
  readonly resolve: (result: BatchResult) => void;
  readonly reject: (error: unknown) => void;
}

/**
 * Group commit for the chunks several partitions' consumers hand in at once (kafkajs
 * partitionsConsumedConcurrently): a chunk that arrives while a transaction runs waits for it, and every
 * chunk waiting then goes into the next transaction together. Chunks of one trace lock the same fleet
 * coordinates, so in transactions of their own they would queue on each other's locks, each paying its
 * own round trips and commit; grouped, they take the locks once and commit once, and a trickle of small
 * chunks (a quiet hour) costs a fraction of the transactions. The first chunk never waits for company.
 *
 * Decoding happens on arrival, while the running group's statements are in Postgres. A group never holds
 * two chunks of one partition (the later one waits for the next group, so a partition stays in offset
 * order); an infrastructure failure fails every chunk of the group, and each source retries its own.
 */
export class GroupCommit {
  private readonly waiting: Waiting[] = [];
  private draining = false;

  constructor(private readonly pipeline: ProjectionPipeline) {}

  process(records: readonly InboundRecord[]): Promise<BatchResult> {
    const items = records.map(decode);
    return new Promise<BatchResult>((resolve, reject) => {
      this.waiting.push({ items, partitions: new Set(items.map(partitionOf)), resolve, reject });
      if (!this.draining) void this.drain();
    });
  }

  /** Typed events from the embedded bus: one source, nothing to group with, straight through. */
  processEvents(events: readonly PositionedEvent[]): Promise<BatchResult> {
    return this.pipeline.processEvents(events);
  }

  private async drain(): Promise<void> {
    this.draining = true;
    try {
      while (this.waiting.length > 0) {
        const group = this.nextGroup();
        try {
          const results = await this.pipeline.processGroup(group.map((w) => w.items));
          group.forEach((w, i) => w.resolve(results[i]!));
        } catch (error) {
          for (const w of group) w.reject(error);
        }
      }
    } finally {
      this.draining = false;
    }
  }

  /**
   * Every waiting chunk, in arrival order, except one with a partition the group already holds, and any
   * later chunk of a partition such a chunk holds: no chunk overtakes an earlier one of its partition.
   */
  private nextGroup(): Waiting[] {
    const group: Waiting[] = [];
    const taken = new Set<number>();
    for (let i = 0; i < this.waiting.length; ) {
      const w = this.waiting[i]!;
      if ([...w.partitions].some((p) => taken.has(p))) {
        for (const p of w.partitions) taken.add(p);
        i += 1;
        continue;
      }
      group.push(w);
      this.waiting.splice(i, 1);
      for (const p of w.partitions) taken.add(p);
    }
    return group;
  }
}

function partitionOf(item: Decoded): number {
  return item.ok ? item.event.partition : item.deadLetter.source.partition;
}
