/** One Kafka record as the pipeline sees it, whatever the transport (kafkajs or the in-process bus). */
export interface InboundRecord {
  readonly topic: string;
  readonly partition: number;
  /** Kafka offsets are int64: kept as decimal strings end to end. */
  readonly offset: string;
  readonly key: Buffer | null;
  readonly value: Buffer | null;
  readonly headers: Readonly<Record<string, Buffer | string | undefined>>;
}

/** A record the pipeline refused, with everything an operator needs to replay or discard it. */
export interface DeadLetter {
  readonly source: InboundRecord;
  /** Stable, fit for a header: e.g. "invalid_field: data.call.tool: Invalid input". */
  readonly reason: string;
  readonly code: string;
}
