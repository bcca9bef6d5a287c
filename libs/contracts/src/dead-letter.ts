/**
 * Headers on a record parked in tokencircuit.agent-events.dlq.v1. The key, value and original headers are
 * the refused record's own, untouched, so an operator can inspect it or replay it to the source topic.
 */
export const DLQ_HEADERS = {
  /** Why it was refused, fit for a human (at most DLQ_REASON_MAX_CHARS). */
  reason: 'tc-dlq-reason',
  /**
   * Stable machine code: not_a_cloudevent, repeated_header, unreadable_batch (a codec could not read its batch:
   * no key, value or original headers), too_large, unknown_type, unsupported_version, invalid_field, unprojectable.
   */
  code: 'tc-dlq-code',
  sourceTopic: 'tc-dlq-source-topic',
  /** Decimal partition number. */
  sourcePartition: 'tc-dlq-source-partition',
  /** Decimal int64 offset, as a string end to end. */
  sourceOffset: 'tc-dlq-source-offset',
} as const;

/** Kafka headers are not the place for an essay: reasons are cut to this length. */
export const DLQ_REASON_MAX_CHARS = 1024;

/**
 * Headers on a dead letter the broker would not take whole (larger than the dead-letter topic accepts,
 * e.g. a compressed record far larger once decompressed): its value is then the first
 * DLQ_TRUNCATED_VALUE_BYTES of the original, its original headers are dropped, and these say what it was.
 */
export const DLQ_TRUNCATION_HEADERS = {
  /** "true" on a truncated copy. */
  truncated: 'tc-dlq-truncated',
  /** Decimal size in bytes of the original value. */
  originalBytes: 'tc-dlq-original-bytes',
  /** Lower-case hex SHA-256 of the original value (empty value: of zero bytes). */
  originalSha256: 'tc-dlq-original-sha256',
  /** Decimal size in bytes of the original key and headers together. */
  originalMetadataBytes: 'tc-dlq-original-metadata-bytes',
} as const;

/** Bytes of the original value kept in a truncated dead letter. */
export const DLQ_TRUNCATED_VALUE_BYTES = 64 * 1024;
