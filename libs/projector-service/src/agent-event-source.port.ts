import type { BatchResult, InboundRecord, PositionedEvent } from '@tokencircuit/projection';
import type { ParkingStuck } from './parking-failure.js';

/** What a source of Kafka records needs: records as bytes, decoded once, then projected. */
export interface RecordHandler {
  process(records: readonly InboundRecord[]): Promise<BatchResult>;
}

/** What a source hands its batches to: the projection pipeline. */
export interface BatchHandler extends RecordHandler {
  /** Events already validated and redacted in this process (the embedded bus): projected as they are. */
  processEvents(events: readonly PositionedEvent[]): Promise<BatchResult>;
}

/** What the projector tells a source and wants to hear from it. */
export interface EventSourceHooks {
  /** Where the database says each partition really is; a source resumes there, whatever its own offsets say. */
  readonly checkpoints: (topic: string) => Promise<ReadonlyMap<number, bigint>>;
  /** After each transaction: what it did, the lag left on each partition it covered, and how long it took. */
  readonly onBatch?: (result: BatchResult, lags: ReadonlyMap<number, bigint>, durationMs: number) => void;
  /**
   * The source gave up for good: a crash kafkajs will not restart from, or the handler threw something that
   * is not an infrastructure failure (the pipeline parks every record it can blame, so what escapes is a
   * defect, and retrying it would loop). Nothing more will be consumed.
   */
  readonly onStopped?: (error: unknown) => void;
  /**
   * The log holds fewer records than the checkpoint says were applied (topic recreated, broker wiped): the
   * partition is paused, nothing skipped as "already applied"; the projector stops or rebases.
   */
  readonly onTopicReset?: (reset: TopicReset) => void;
}

/** A partition whose high watermark is below its Postgres checkpoint. */
export interface TopicReset {
  readonly topic: string;
  readonly partition: number;
  readonly checkpoint: bigint;
  readonly highWatermark: bigint;
}

/** Log start and high watermark of one partition, as the broker holds them now. */
export interface LogOffsets {
  readonly partition: number;
  readonly low: bigint;
  readonly high: bigint;
}

/**
 * The projector's inbound port: Kafka in production, the in-process bus when embedded. Built by the
 * composition root, started by the projector once Nest is up.
 */
export interface AgentEventSource {
  readonly topic: string;
  /** Which brokers or bus it reads from, for the start-up log line. */
  readonly description: string;
  start(handler: BatchHandler, hooks: EventSourceHooks): Promise<void>;
  /** Finishes the records in hand and releases the source (leaves the consumer group). */
  stop(): Promise<void>;
  /** Seconds the oldest failing chunk of each partition has been retried (failing partitions only). */
  stuckSeconds?(): ReadonlyMap<number, number>;
  /** Partitions that gave up retrying a record they could not park: paused, with the reason. */
  stuckParking?(): ReadonlyMap<number, ParkingStuck>;
  /** The broker's offsets of every partition (for lag measured while nothing commits, and reset checks). */
  logOffsets?(): Promise<readonly LogOffsets[]>;
  /** After `partition`'s checkpoint was rebased to `next`: goes on from there if paused on a reset. */
  resumeAt?(partition: number, next: bigint): void;
}
