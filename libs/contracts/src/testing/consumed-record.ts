import type { AgentEvent } from '../agent-events.js';
import type { ContentMode } from '../kafka-binding.js';
import { overTheWire } from './over-the-wire.js';
import { agentEventRecord } from '../produced-records.js';

/** Where a consumer read a record: the coordinates the projection checkpoints. */
export interface RecordPosition {
  readonly topic: string;
  readonly partition: number;
  readonly offset: string;
}

/** A consumed Kafka record at its position: key, value and headers as Buffers, as kafkajs hands them back. */
export interface ConsumedRecord extends RecordPosition {
  readonly key: Buffer | null;
  readonly value: Buffer | null;
  readonly headers: Record<string, Buffer | undefined>;
}

/** The record a consumer receives for `event` at `position`: what a producer sent, after the wire. */
export function consumedRecord(
  event: AgentEvent,
  position: RecordPosition,
  mode: ContentMode = 'binary',
): ConsumedRecord {
  // overTheWire turns every string into its UTF-8 bytes: each part is a Buffer (or null) from here on.
  return { ...position, ...(overTheWire(agentEventRecord(event, mode)) as Omit<ConsumedRecord, keyof RecordPosition>) };
}
