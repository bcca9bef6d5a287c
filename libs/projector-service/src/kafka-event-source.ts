import type { Admin, Consumer, EachBatchPayload, Kafka } from 'kafkajs';
import type { Logger } from 'pino';
import type { BatchResult, InboundRecord } from '@tokencircuit/projection';
import { CONSUMER_FETCH_WAIT_MS, retryAtStart, unreadableReason } from '@tokencircuit/kafka';
import { failureKind } from '@tokencircuit/storage';
import type { AgentEventSource, EventSourceHooks, LogOffsets, RecordHandler } from './agent-event-source.port.js';
import { GroupCommit } from './group-commit.js';
import { parkingFailureOf, type ParkingStuck } from './parking-failure.js';

export interface KafkaEventSourceOptions {
  readonly topic: string;
  readonly groupId: string;
  readonly sessionTimeoutMs: number;
  readonly maxBytesPerPartition: number;
  readonly chunkSize: number;
  /**
   * kafkajs partitionsConsumedConcurrently: how many partitions of one fetch are handed over together, their
   * chunks gathered into transactions of up to chunkSize records (each partition's chunks stay in order).
   */
  readonly partitionsConcurrently: number;
  /** Transactions in flight at once (GroupCommit's maxInFlight). */
  readonly transactionsInFlight: number;
  /**
   * Attempts at a chunk whose records could not be parked before its partition stops retrying, is paused and
   * reported stuck (health and metrics) with the reason. Default 10.
   */
  readonly parkingAttempts?: number;
}

/** One partition's next chunk, waiting to be projected with the other partitions' chunks of the same fetch. */
interface GatheredChunk {
  readonly partition: number;
  readonly records: readonly InboundRecord[];
  readonly highWatermark: bigint;
}

const NOT_STARTED: RecordHandler = {
  process: () => Promise.reject(new Error('KafkaEventSource: records arrived before start()')),
};

/**
 * Kafka's committed offset is only a hint (every assignment seeks to the Postgres checkpoint), so it is
 * committed at most this often per partition instead of once per chunk: a broker round trip less on
 * most chunks, and a hint at most this stale.
 */
const HINT_INTERVAL_MS = 1_000;

/**
 * kafkajs consumer that hands bounded chunks to the pipeline, the small chunks of the partitions of one fetch
 * gathered into one transaction (GroupCommit). Immune to kafkajs' offset traps by design:
 * no auto-commit (nothing relies on it), the Postgres checkpoint is the truth and Kafka's committed offset
 * only a hint (a commit lost to a rebalance or a stale generation costs a re-read that the checkpoint
 * skips), a heartbeat after every chunk and a stale check before the next, so a long batch never
 * outlives the session.
 */
export class KafkaEventSource implements AgentEventSource {
  private readonly consumer: Consumer;
  private handler: RecordHandler = NOT_STARTED;
  private hooks: EventSourceHooks = { checkpoints: async () => new Map() };
  /** When each partition's offset was last committed to Kafka (performance.now()). */
  private readonly hintedAt = new Map<number, number>();
  /** Since when (Date.now()) each partition's current chunk has been failing; absent while it succeeds. */
  private readonly failingSince = new Map<number, number>();
  /** The checkpoint each owned partition was at when assigned, moved on by every chunk committed since. */
  private readonly known = new Map<number, bigint>();
  /** Partitions paused on a topic reset, with the function that resumes each. */
  private readonly paused = new Map<number, () => void>();
  /** Consecutive failed attempts to park a record of each partition (reset by a committed chunk). */
  private readonly parkingFailures = new Map<number, number>();
  /** Partitions that gave up parking: paused, with why, until the process restarts or loses them. */
  private readonly parkingStuck = new Map<number, ParkingStuck>();
  /** The seek of the latest assignment: a batch waits for it, so it is checked against fresh checkpoints. */
  private seeking: Promise<void> = Promise.resolve();
  private admin: Admin | null = null;
  private readonly transactions: GroupCommit<GatheredChunk, BatchResult>;

  constructor(
    private readonly kafka: Kafka,
    private readonly options: KafkaEventSourceOptions,
    private readonly log: Logger,
    /** The brokers, for the start-up log line. */
    readonly description: string,
  ) {
    this.consumer = kafka.consumer({
      groupId: options.groupId,
      // Topics are provisioned (topics ensure / start-up), never created by a consumer's metadata request.
      allowAutoTopicCreation: false,
      sessionTimeout: options.sessionTimeoutMs,
      heartbeatInterval: Math.floor(options.sessionTimeoutMs / 10),
      maxBytesPerPartition: options.maxBytesPerPartition,
      maxWaitTimeInMs: CONSUMER_FETCH_WAIT_MS,
      retry: { retries: 10 },
    });
    this.transactions = new GroupCommit((chunks) => this.projectTogether(chunks), {
      maxInFlight: options.transactionsInFlight,
      capacity: options.chunkSize,
      weigh: (chunk) => chunk.records.length,
    });
  }

  get topic(): string {
    return this.options.topic;
  }

  async start(handler: RecordHandler, hooks: EventSourceHooks): Promise<void> {
    this.handler = handler;
    this.hooks = hooks;
    this.consumer.on(this.consumer.events.GROUP_JOIN, (event) => {
      const assigned = new Set(event.payload.memberAssignment[this.options.topic] ?? []);
      // A partition now owned elsewhere is that owner's to report.
      for (const partition of this.failingSince.keys()) {
        if (!assigned.has(partition)) this.failingSince.delete(partition);
      }
      for (const partition of [...this.parkingStuck.keys(), ...this.parkingFailures.keys()]) {
        if (assigned.has(partition)) continue;
        this.parkingStuck.delete(partition);
        this.parkingFailures.delete(partition);
      }
      this.seeking = this.seekToCheckpoints(event.payload.memberAssignment);
    });
    this.consumer.on(this.consumer.events.CRASH, (event) => {
      this.log.error({ err: event.payload.error, restart: event.payload.restart }, 'consumer crashed');
      // kafkajs restarts after retriable errors only; after any other the consumer stays stopped while the
      // process lives on, so say so instead of looking healthy.
      if (!event.payload.restart) this.hooks.onStopped?.(event.payload.error);
    });
    // A new cluster answers a moment before the topic's leaders are known everywhere: retried within a bound.
    await retryAtStart(
      `the projector consumer of ${this.options.topic}`,
      async () => {
        await this.consumer.connect();
        await this.consumer.subscribe({ topics: [this.options.topic], fromBeginning: true });
      },
      {
        onRetry: (error, attempt, delayMs) =>
          this.log.warn({ err: error, attempt, delayMs }, 'kafka not ready for the projector yet; retrying'),
      },
    );
    await this.consumer.run({
      autoCommit: false,
      eachBatchAutoResolve: false,
      partitionsConsumedConcurrently: this.options.partitionsConcurrently,
      eachBatch: (payload) => this.onBatch(payload),
    });
  }

  stuckSeconds(now = Date.now()): Map<number, number> {
    return new Map([...this.failingSince].map(([partition, since]) => [partition, (now - since) / 1000]));
  }

  /** Partitions that stopped retrying a record they could not park (see parkingAttempts). */
  stuckParking(): ReadonlyMap<number, ParkingStuck> {
    return this.parkingStuck;
  }

  async logOffsets(): Promise<LogOffsets[]> {
    if (this.admin === null) {
      const admin = this.kafka.admin();
      await admin.connect();
      this.admin = admin;
    }
    const offsets = await this.admin.fetchTopicOffsets(this.options.topic);
    return offsets.map(({ partition, low, high }) => ({ partition, low: BigInt(low), high: BigInt(high) }));
  }

  resumeAt(partition: number, next: bigint): void {
    this.known.set(partition, next);
    const resume = this.paused.get(partition);
    this.paused.delete(partition);
    resume?.();
  }

  /** Finishes the batch in hand, commits what the database already holds, and leaves the group. */
  async stop(): Promise<void> {
    await this.consumer.stop();
    await this.consumer.disconnect();
    await this.admin?.disconnect();
    this.admin = null;
  }

  private async onBatch({
    batch,
    heartbeat,
    isRunning,
    isStale,
    resolveOffset,
    pause,
  }: EachBatchPayload): Promise<void> {
    await this.seeking;
    const known = this.known.get(batch.partition);
    const highWatermark = BigInt(batch.highWatermark);
    if (known !== undefined && highWatermark < known) {
      // Offsets restarted below what was applied: processing would skip them all as "already applied".
      if (!this.paused.has(batch.partition)) this.paused.set(batch.partition, pause());
      this.hooks.onTopicReset?.({ topic: batch.topic, partition: batch.partition, checkpoint: known, highWatermark });
      return;
    }
    const all = batch.messages;
    for (let start = 0; start < all.length; start += this.options.chunkSize) {
      if (!isRunning() || isStale()) return; // the partition moved: the new owner resumes from the checkpoint
      const chunk = all.slice(start, start + this.options.chunkSize);
      const records: InboundRecord[] = chunk.map((m) => {
        const at = { topic: batch.topic, partition: batch.partition, offset: m.offset };
        // A stand-in for a record of a batch no codec could read (libs/kafka codecs.ts): parked by position.
        const unreadable = unreadableReason(m.headers);
        if (unreadable !== null) return { ...at, key: null, value: null, headers: {}, unreadable };
        return { ...at, key: m.key, value: m.value, headers: (m.headers ?? {}) as InboundRecord['headers'] };
      });
      try {
        // Rejects with what the transaction threw (already logged and reported): kafkajs retries the fetch.
        await this.transactions.add({ partition: batch.partition, records, highWatermark });
      } catch (error) {
        if (!this.parkingStuck.has(batch.partition)) throw error;
        // Gave up parking here: no more retries, no more fetches; health and metrics say why (stuckParking).
        pause();
        return;
      }
      const last = chunk[chunk.length - 1]!.offset;
      // kafkajs fetches on from its resolved offsets, not the committed ones: resolve or it refetches forever.
      resolveOffset(last);
      const next = (BigInt(last) + 1n).toString();
      const now = performance.now();
      if (now - (this.hintedAt.get(batch.partition) ?? Number.NEGATIVE_INFINITY) >= HINT_INTERVAL_MS) {
        this.hintedAt.set(batch.partition, now);
        await this.commitHint(batch.topic, batch.partition, next);
      }
      await heartbeat();
    }
  }

  /**
   * The chunks of every partition handed in together, projected in one transaction (each partition's
   * records stay contiguous and in offset order, which is all the pipeline asks). Failures are told here,
   * once per transaction; every chunk's caller then rethrows to kafkajs.
   */
  private async projectTogether(chunks: readonly GatheredChunk[]): Promise<BatchResult> {
    const started = performance.now();
    let result: BatchResult;
    try {
      result = await this.handler.process(chunks.flatMap((c) => c.records));
    } catch (error) {
      const at = {
        topic: this.options.topic,
        chunks: chunks.map((c) => ({ partition: c.partition, firstOffset: c.records[0]!.offset })),
      };
      if (failureKind(error) !== 'infrastructure') {
        // Thrown back to kafkajs, a TypeError or RangeError would stop the consumer for good while the
        // process looks alive; anything else would be retried forever. Neither: stop, loudly.
        this.log.fatal({ err: error, ...at }, 'projection failed with an error no record is to blame for');
        this.hooks.onStopped?.(error);
        throw error;
      }
      for (const { partition } of chunks) {
        if (!this.failingSince.has(partition)) this.failingSince.set(partition, Date.now());
      }
      this.countParkingFailure(error, chunks);
      // kafkajs retries the batch with backoff (and restarts the consumer past its retries); say why.
      this.log.error({ err: error, ...at }, 'batch failed on infrastructure; will be retried');
      throw error;
    }
    const lags = new Map<number, bigint>();
    for (const { partition, records, highWatermark } of chunks) {
      this.failingSince.delete(partition);
      this.parkingFailures.delete(partition);
      const next = BigInt(records[records.length - 1]!.offset) + 1n;
      if ((this.known.get(partition) ?? -1n) < next) this.known.set(partition, next);
      const lag = highWatermark - next;
      lags.set(partition, lag < 0n ? 0n : lag);
    }
    this.hooks.onBatch?.(result, lags, performance.now() - started);
    return result;
  }

  /**
   * A record that cannot be parked is retried a bounded number of times, never forever: then its partition
   * is marked stuck with the reason (onBatch pauses it), and the other partitions go on without it.
   */
  private countParkingFailure(error: unknown, chunks: readonly GatheredChunk[]): void {
    const failure = parkingFailureOf(error);
    if (failure === null) return;
    const limit = this.options.parkingAttempts ?? 10;
    for (const { partition } of chunks) {
      if (failure.partitions !== null && !failure.partitions.includes(partition)) continue;
      const attempts = (this.parkingFailures.get(partition) ?? 0) + 1;
      this.parkingFailures.set(partition, attempts);
      if (attempts < limit || this.parkingStuck.has(partition)) continue;
      this.parkingStuck.set(partition, {
        partition,
        reason: failure.reason,
        attempts,
        since: new Date().toISOString(),
      });
      this.log.error(
        { topic: this.options.topic, partition, attempts, reason: failure.reason },
        'partition stuck: a record could not be parked after every attempt; paused until the projector restarts',
      );
    }
  }

  private async commitHint(topic: string, partition: number, offset: string): Promise<void> {
    try {
      await this.consumer.commitOffsets([{ topic, partition, offset }]);
    } catch (error) {
      // Rebalance in progress / stale generation: harmless, the checkpoint in Postgres already holds it.
      this.log.warn(
        { err: error, topic, partition, offset },
        'kafka offset commit skipped; postgres checkpoint stands',
      );
    }
  }

  private async seekToCheckpoints(assignment: Record<string, number[]>): Promise<void> {
    const partitions = assignment[this.options.topic] ?? [];
    if (partitions.length === 0) return;
    try {
      const checkpoints = await this.hooks.checkpoints(this.options.topic);
      this.known.clear();
      for (const partition of partitions) {
        const next = checkpoints.get(partition);
        if (next === undefined) continue;
        this.known.set(partition, next);
        this.consumer.seek({ topic: this.options.topic, partition, offset: next.toString() });
      }
    } catch (error) {
      this.log.warn({ err: error }, 'could not seek to postgres checkpoints; relying on skip-on-apply');
    }
  }
}
