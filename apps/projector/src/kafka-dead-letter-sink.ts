import type { Producer } from 'kafkajs';
import { DLQ_HEADERS, DLQ_REASON_MAX_CHARS } from '@tokencircuit/contracts';
import type { DeadLetter } from '@tokencircuit/projection';
import type { DeadLetterSink } from '@tokencircuit/projection';

/**
 * Publishes refused records to the DLQ with the reason and the source position in headers and the
 * original bytes untouched, so they can be inspected or replayed. acks=-1: the batch commits only after.
 */
export class KafkaDeadLetterSink implements DeadLetterSink {
  constructor(
    private readonly producer: Producer,
    private readonly topic: string,
  ) {}

  async send(deadLetters: readonly DeadLetter[]): Promise<void> {
    if (deadLetters.length === 0) return;
    await this.producer.send({
      topic: this.topic,
      acks: -1,
      messages: deadLetters.map(({ source, reason, code }) => ({
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
      })),
    });
  }
}
