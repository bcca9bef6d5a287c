import type { Producer } from 'kafkajs';
import type { NotifierDeadLetter } from '@tokencircuit/contracts';
import { MAX_REQUEST_BYTES, sendSizeBounded } from '@tokencircuit/kafka';
import type { DeliveryDeadLetters } from './delivery-dead-letters.port.js';

/**
 * tokencircuit.notifier.dlq.v1: JSON, keyed by the delivery id, acks from all in-sync replicas. Letters carry
 * their step (artifact and receipts): sent in size-bounded requests, so a sink refusing a burst never makes
 * one request the broker refuses on every retry.
 */
export class KafkaDeliveryDeadLetters implements DeliveryDeadLetters {
  constructor(
    private readonly producer: Producer,
    private readonly topic: string,
    private readonly maxRequestBytes = MAX_REQUEST_BYTES,
  ) {}

  async send(letters: readonly NotifierDeadLetter[]): Promise<void> {
    const messages = letters.map((letter) => ({
      key: letter.deliveryId,
      value: JSON.stringify(letter),
      headers: { 'content-type': 'application/json' },
    }));
    await sendSizeBounded(this.producer, this.topic, messages, this.maxRequestBytes);
  }

  close(): Promise<void> {
    return this.producer.disconnect();
  }
}
