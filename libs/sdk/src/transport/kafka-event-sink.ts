import type { Kafka, Producer } from 'kafkajs';
import { agentEventRecord, type AgentEvent, type ContentMode } from '@tokencircuit/contracts';
import type { EventSink } from './event-sink.js';

/**
 * Agent events as CloudEvents on Kafka, keyed tenant/run so a run's events stay in order on one
 * partition. Idempotent producer, acks from all in-sync replicas: publish() resolving means the
 * broker has the event.
 */
export class KafkaEventSink implements EventSink {
  private constructor(
    private readonly producer: Producer,
    private readonly topic: string,
    private readonly mode: ContentMode,
  ) {}

  static async connect(kafka: Kafka, topic: string, mode: ContentMode): Promise<KafkaEventSink> {
    const producer = kafka.producer({
      idempotent: true,
      maxInFlightRequests: 1,
      allowAutoTopicCreation: false,
      retry: { retries: 5 },
    });
    await producer.connect();
    return new KafkaEventSink(producer, topic, mode);
  }

  async publish(event: AgentEvent): Promise<void> {
    const record = agentEventRecord(event, this.mode);
    await this.producer.send({
      topic: this.topic,
      acks: -1,
      messages: [{ key: record.key, value: record.value, headers: record.headers as Record<string, string> }],
    });
  }

  close(): Promise<void> {
    return this.producer.disconnect();
  }
}
