import { createHash } from 'node:crypto';

/**
 * A record on the bus: a position like a Kafka record's, and a value that is either bytes (copied, as a
 * broker would) or a typed value of this process, delivered as it was published (the agent events the
 * HTTP edge already validated: no encoding, no second decode).
 */
export interface BusRecord<V = Buffer | null> {
  readonly topic: string;
  readonly partition: number;
  readonly offset: string;
  readonly key: Buffer | null;
  readonly value: V;
  readonly headers: Readonly<Record<string, Buffer | string | undefined>>;
}

export interface BusMessage<V = Buffer | string | null> {
  readonly key: string | null;
  readonly value: V;
  readonly headers?: Readonly<Record<string, Buffer | string | undefined>>;
}

/** Handles records of one partition in offset order; a rejection fails the publishers of those records. */
export type BusHandler<V = Buffer | null> = (records: readonly BusRecord<V>[]) => Promise<void>;

/** What a subscriber receives for a published value: bytes become a Buffer of their own, anything else as is. */
type Delivered<V> = V extends string | Buffer ? Buffer : V;

interface Pending {
  readonly record: BusRecord<unknown>;
  readonly done: { resolve: () => void; reject: (error: unknown) => void };
}

/**
 * The embedded mode's stand-in for Kafka, for one process only (never the production path).
 * Delivery is synchronous: publish() resolves once every subscriber has handled the records (for the
 * projector: once its Postgres transaction committed), so an acknowledged event is already durable and
 * nothing accepted is lost when the process dies. Concurrent publishes are coalesced into batches, the
 * way a Kafka fetch would batch them; records keep Kafka's per-key partitioning and per-partition order.
 */
export class InProcessBus {
  private readonly nextOffsets = new Map<string, bigint>();
  private readonly subscribers = new Map<string, BusHandler<unknown>[]>();
  private readonly queues = new Map<string, Pending[]>();
  private readonly draining = new Set<string>();

  constructor(
    private readonly partitions: number,
    private readonly maxBatch = 1_000,
  ) {
    if (!Number.isInteger(partitions) || partitions < 1) throw new RangeError('partitions must be a positive integer');
  }

  /** Continues offsets after a restart (e.g. from the projector's checkpoints), so none is reused. */
  resume(topic: string, nextOffsets: ReadonlyMap<number, bigint>): void {
    for (const [partition, next] of nextOffsets) {
      const id = `${topic}#${partition}`;
      if ((this.nextOffsets.get(id) ?? 0n) < next) this.nextOffsets.set(id, next);
    }
  }

  /** `V`: what the topic's publishers put on it (bytes arrive as Buffers). */
  subscribe<V = Buffer | null>(topic: string, handler: BusHandler<V>): () => void {
    const handlers = this.subscribers.get(topic) ?? [];
    handlers.push(handler as BusHandler<unknown>);
    this.subscribers.set(topic, handlers);
    return () => {
      const remaining = (this.subscribers.get(topic) ?? []).filter((h) => h !== (handler as BusHandler<unknown>));
      this.subscribers.set(topic, remaining);
    };
  }

  async publish<V>(topic: string, messages: readonly BusMessage<V>[]): Promise<void> {
    const waits: Promise<void>[] = [];
    const touched = new Set<string>();
    for (const message of messages) {
      const partition = this.partitionOf(message.key);
      const queueId = `${topic}#${partition}`;
      const offset = this.nextOffsets.get(queueId) ?? 0n;
      this.nextOffsets.set(queueId, offset + 1n);
      const record: BusRecord<Delivered<V>> = {
        topic,
        partition,
        offset: offset.toString(),
        key: message.key === null ? null : Buffer.from(message.key),
        value: delivered(message.value),
        headers: message.headers ?? {},
      };
      waits.push(
        new Promise<void>((resolve, reject) => {
          const queue = this.queues.get(queueId) ?? [];
          queue.push({ record, done: { resolve, reject } });
          this.queues.set(queueId, queue);
        }),
      );
      touched.add(queueId);
    }
    for (const queueId of touched) void this.drain(queueId);
    await Promise.all(waits);
  }

  private partitionOf(key: string | null): number {
    if (key === null) return 0;
    return createHash('sha1').update(key).digest().readUInt32BE(0) % this.partitions;
  }

  private async drain(queueId: string): Promise<void> {
    if (this.draining.has(queueId)) return;
    this.draining.add(queueId);
    try {
      for (;;) {
        const queue = this.queues.get(queueId) ?? [];
        if (queue.length === 0) return;
        const batch = queue.splice(0, this.maxBatch);
        const topic = batch[0]!.record.topic;
        try {
          for (const handler of this.subscribers.get(topic) ?? []) await handler(batch.map((p) => p.record));
          for (const p of batch) p.done.resolve();
        } catch (error) {
          for (const p of batch) p.done.reject(error);
        }
      }
    } finally {
      this.draining.delete(queueId);
    }
  }
}

function delivered<V>(value: V): Delivered<V> {
  return (typeof value === 'string' || Buffer.isBuffer(value) ? Buffer.from(value) : value) as Delivered<V>;
}
