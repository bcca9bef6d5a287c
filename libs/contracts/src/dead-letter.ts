/**
 * Headers on a record parked in tokencircuit.agent-events.dlq.v1. The key, value and original headers are
 * the refused record's own, untouched, so an operator can inspect it or replay it to the source topic.
 */
export const DLQ_HEADERS = {
  /** Why it was refused, fit for a human (at most DLQ_REASON_MAX_CHARS). */
  reason: 'tc-dlq-reason',
  /** Stable machine code: not_a_cloudevent, too_large, unknown_type, unsupported_version, invalid_field. */
  code: 'tc-dlq-code',
  sourceTopic: 'tc-dlq-source-topic',
  /** Decimal partition number. */
  sourcePartition: 'tc-dlq-source-partition',
  /** Decimal int64 offset, as a string end to end. */
  sourceOffset: 'tc-dlq-source-offset',
} as const;

/** Kafka headers are not the place for an essay: reasons are cut to this length. */
export const DLQ_REASON_MAX_CHARS = 1024;
