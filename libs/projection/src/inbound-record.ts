import type { EventPosition } from './positioned-event.js';

/** One Kafka record as the decoder sees it (kafkajs's shape). */
export interface InboundRecord extends EventPosition {
  readonly key: Buffer | null;
  readonly value: Buffer | null;
  /** A name Kafka carried more than once holds every value, in order (kafkajs's shape). */
  readonly headers: Readonly<Record<string, Buffer | string | readonly (Buffer | string)[] | undefined>>;
  /**
   * Set when the record's batch could not be decompressed (a codec failed on it): key, value and headers are
   * absent, this says why and which offsets, and the record is parked with its coordinates.
   */
  readonly unreadable?: string;
}

/** A record the pipeline refused, with everything an operator needs to replay or discard it. */
export interface DeadLetter {
  readonly source: InboundRecord;
  /** Stable, fit for a header: e.g. "invalid_field: data.call.tool: Invalid input". */
  readonly reason: string;
  readonly code: string;
}
