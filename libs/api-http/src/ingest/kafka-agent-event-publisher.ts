import type { Kafka, Message, Producer } from 'kafkajs';
import { messageBytes, sizeBoundedRequests } from '@tokencircuit/kafka';
import { agentEventRecord, type AgentEvent } from '@tokencircuit/contracts';
import { UnavailableError } from '../http/api-errors.js';
import type { AgentEventPublisher } from './agent-event-publisher.port.js';

/** Agent events as binary-mode CloudEvents keyed tenant/run, acknowledged by all in-sync replicas. */
export class KafkaAgentEventPublisher implements AgentEventPublisher {
  constructor(
    private readonly producer: Producer,
    private readonly topic: string,
  ) {}

  /**
   * An idempotent producer (no duplicates from its own retries). Retries are bounded, unlike kafkajs'
   * idempotent default of "forever": an HTTP client waiting on a dead broker should get a 503 and retry.
   */
  static async connect(kafka: Kafka, topic: string): Promise<KafkaAgentEventPublisher> {
    const producer = kafka.producer({
      idempotent: true,
      maxInFlightRequests: 1,
      allowAutoTopicCreation: false,
      retry: { retries: 5 },
    });
    await producer.connect();
    return new KafkaAgentEventPublisher(producer, topic);
  }

  close(): Promise<void> {
    return this.producer.disconnect();
  }

  /**
   * Sent in size-bounded requests (Kafka refuses a request over its limits). A failure after an earlier
   * request was acknowledged answers 503: the client resends the same events and the projector drops the
   * ids it already has, so a partial publish is never a loss or a double count.
   */
  async publish(events: readonly AgentEvent[], traceparents?: ReadonlyMap<string, string>): Promise<void> {
    const messages = events.map((event) => toMessage(event, traceparents?.get(event.id)));
    for (const chunk of sizeBoundedRequests(messages, messageBytes)) {
      try {
        await this.producer.send({ topic: this.topic, acks: -1, messages: chunk });
      } catch (error) {
        throw new UnavailableError(
          'publish_failed',
          `the event broker did not acknowledge the events (${(error as Error).message}); nothing is lost by retrying the same request`,
          { cause: error },
        );
      }
    }
  }
}

function toMessage(event: AgentEvent, traceparent: string | undefined): Message {
  const record = agentEventRecord(event, 'binary');
  const headers = record.headers as Record<string, string>;
  // W3C Trace Context's Kafka header, which the projector's decode reads (libs/projection/src/decode.ts).
  return { key: record.key, value: record.value, headers: traceparent ? { ...headers, traceparent } : headers };
}
