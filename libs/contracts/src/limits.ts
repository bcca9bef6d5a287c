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
  /**
   * Nesting of arrays and objects in any JSON text read from a client or a record (the outermost
   * container is level 1). Checked on the text before parsing, without recursion: every later walk
   * of the value (zod, JSON.stringify, redaction, canonical JSON) recurses.
   */
  jsonDepth: 64,
  /**
   * UTF-8 bytes of the raw fields that make up a failure-state key (see state-key-size.ts): the key id
   * (and the outbox id built from it) is a primary key, and a B-tree entry holds at most 2704 bytes
   * (BTMaxItemSize, 8 KiB pages). Room is left for the id's separators and an index that pairs it with
   * the tenant (episode_events: tenant, key_id, episode, seq): 768 + 1536 + ~110 < 2704.
   */
  stateKeyBytes: 1536,
} as const;
