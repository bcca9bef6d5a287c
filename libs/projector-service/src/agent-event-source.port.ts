import type { BatchResult, InboundRecord } from '@tokencircuit/projection';

/** What a source hands its records to: the projection pipeline. */
export interface BatchHandler {
  process(records: readonly InboundRecord[]): Promise<BatchResult>;
}

/** What the projector tells a source and wants to hear from it. */
export interface EventSourceHooks {
  /** Where the database says each partition really is; a source resumes there, whatever its own offsets say. */
  readonly checkpoints: (topic: string) => Promise<ReadonlyMap<number, bigint>>;
  readonly onBatch?: (result: BatchResult, partition: number, lag: bigint, durationMs: number) => void;
  /** The source gave up for good (e.g. a crash kafkajs will not restart from): nothing more will be consumed. */
  readonly onStopped?: (error: unknown) => void;
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
}
