import type { Producer } from 'kafkajs';
import type { AnchorSink } from '@tokencircuit/decision-relay';
import { MAX_REQUEST_BYTES, sendSizeBounded } from '@tokencircuit/kafka';
import type { SignedAnchor } from '@tokencircuit/storage';

/**
 * Anchors to the audit-anchors topic: JSON, keyed by tenant (compaction keeps each tenant's latest), acks from
 * all replicas. One round holds an anchor per tenant: sent in size-bounded requests, so a fleet of many
 * tenants never makes one request the broker refuses on every retry.
 */
export class KafkaAnchorSink implements AnchorSink {
  constructor(
    private readonly producer: Producer,
    private readonly topic: string,
    private readonly maxRequestBytes = MAX_REQUEST_BYTES,
  ) {}

  async publish(anchors: readonly SignedAnchor[]): Promise<void> {
    const messages = anchors.map((a) => ({
      key: a.tenant,
      value: JSON.stringify(a),
      headers: { 'content-type': 'application/json' },
    }));
    await sendSizeBounded(this.producer, this.topic, messages, this.maxRequestBytes);
  }
}
