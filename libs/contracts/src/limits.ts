/** Hard caps that keep one event bounded in Kafka, Postgres and memory. */
export const LIMITS = {
  /** Serialized tool arguments, in bytes (UTF-8 JSON). */
  argumentsBytes: 16 * 1024,
  /** Error message / body excerpt kept from a raw error. */
  errorTextChars: 4 * 1024,
  /** Whole CloudEvent, serialized, in bytes; above this the event is refused (HTTP 413, DLQ). */
  eventBytes: 64 * 1024,
  /** Identifier-like strings (tenant, run, tool, …). */
  idChars: 256,
  /** Selected error headers kept. */
  headers: 32,
} as const;
