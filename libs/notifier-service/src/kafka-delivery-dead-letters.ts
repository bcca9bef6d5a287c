import type { Producer } from 'kafkajs';
import type { NotifierDeadLetter } from '@tokencircuit/contracts';
import type { DeliveryDeadLetters } from './delivery-dead-letters.port.js';

/** tokencircuit.notifier.dlq.v1: JSON, keyed by the delivery id, acks from all in-sync replicas. */
export class KafkaDeliveryDeadLetters implements DeliveryDeadLetters {
  constructor(
    private readonly producer: Producer,
    private readonly topic: string,
  ) {}

  async send(letters: readonly NotifierDeadLetter[]): Promise<void> {
    if (letters.length === 0) return;
    await this.producer.send({
      topic: this.topic,
      acks: -1,
      messages: letters.map((letter) => ({
        key: letter.deliveryId,
        value: JSON.stringify(letter),
        headers: { 'content-type': 'application/json' },
      })),
    });
  }

  close(): Promise<void> {
    return this.producer.disconnect();
  }
}
