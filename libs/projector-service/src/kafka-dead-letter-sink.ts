import type { Message, Producer } from 'kafkajs';
import { DLQ_HEADERS, DLQ_REASON_MAX_CHARS } from '@tokencircuit/contracts';
import type { DeadLetter, DeadLetterSink } from '@tokencircuit/projection';

/** Below the broker's default 1 MiB request/message limit, with room for headers and framing. */
const MAX_REQUEST_BYTES = 512 * 1024;

/**
 * Publishes refused records to the DLQ with the reason and the source position in headers and the
 * original bytes untouched, so they can be inspected or replayed. acks=-1: the batch commits only after.
 * Requests are split by size: a chunk of large poison records must not exceed the broker's limit.
 */
export class KafkaDeadLetterSink implements DeadLetterSink {
  constructor(
    private readonly producer: Producer,
    private readonly topic: string,
  ) {}

  async send(deadLetters: readonly DeadLetter[]): Promise<void> {
    let request: Message[] = [];
    let bytes = 0;
    for (const message of deadLetters.map(toMessage)) {
      const size = (message.value as Buffer | null)?.length ?? 0;
      if (request.length > 0 && bytes + size > MAX_REQUEST_BYTES) {
        await this.producer.send({ topic: this.topic, acks: -1, messages: request });
        request = [];
        bytes = 0;
      }
      request.push(message);
      bytes += size + 512;
    }
    if (request.length > 0) await this.producer.send({ topic: this.topic, acks: -1, messages: request });
  }

  /** Disconnects the producer: an open broker connection would keep the process alive after shutdown. */
  close(): Promise<void> {
    return this.producer.disconnect();
  }
}

function toMessage({ source, reason, code }: DeadLetter): Message {
  return {
    key: source.key,
    value: source.value,
    headers: {
      ...source.headers,
      [DLQ_HEADERS.reason]: reason.slice(0, DLQ_REASON_MAX_CHARS),
      [DLQ_HEADERS.code]: code,
      [DLQ_HEADERS.sourceTopic]: source.topic,
      [DLQ_HEADERS.sourcePartition]: String(source.partition),
      [DLQ_HEADERS.sourceOffset]: source.offset,
    },
  };
}
