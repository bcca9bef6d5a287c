import type { Producer } from 'kafkajs';
import type { AnchorSink } from '@tokencircuit/decision-relay';
import type { SignedAnchor } from '@tokencircuit/storage';

/** Anchors to the audit-anchors topic: JSON, keyed by tenant (compaction keeps each tenant's latest), acks from all replicas. */
export class KafkaAnchorSink implements AnchorSink {
  constructor(
    private readonly producer: Producer,
    private readonly topic: string,
  ) {}

  async publish(anchors: readonly SignedAnchor[]): Promise<void> {
    await this.producer.send({
      topic: this.topic,
      acks: -1,
      messages: anchors.map((a) => ({
        key: a.tenant,
        value: JSON.stringify(a),
        headers: { 'content-type': 'application/json' },
      })),
    });
  }
}
