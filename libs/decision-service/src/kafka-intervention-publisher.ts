import type { Message, Producer } from 'kafkajs';
import { interventionToCloudEvent, partitionKey, toKafkaRecord, type InterventionData } from '@tokencircuit/contracts';
import type { InterventionPublisher } from '@tokencircuit/decision-relay';

/** Well below the broker's default 1 MiB request limit: a round of many interventions is split. */
const MAX_REQUEST_BYTES = 512 * 1024;

/**
 * Interventions as structured CloudEvents keyed tenant/run; acks from all in-sync replicas before the
 * outbox commits. A round's interventions go in size-bounded requests: one oversized request would be
 * refused by the broker on every retry and stall the outbox for good.
 */
export class KafkaInterventionPublisher implements InterventionPublisher {
  constructor(
    private readonly producer: Producer,
    private readonly topic: string,
  ) {}

  async publish(interventions: readonly InterventionData[]): Promise<void> {
    let request: Message[] = [];
    let bytes = 0;
    for (const intervention of interventions) {
      const record = toKafkaRecord(
        interventionToCloudEvent(intervention),
        'structured',
        partitionKey(intervention.tenant, intervention.run),
      );
      const size = (record.value as Buffer).length + 256;
      if (request.length > 0 && bytes + size > MAX_REQUEST_BYTES) {
        await this.producer.send({ topic: this.topic, acks: -1, messages: request });
        request = [];
        bytes = 0;
      }
      request.push({ key: record.key, value: record.value, headers: record.headers });
      bytes += size;
    }
    if (request.length > 0) await this.producer.send({ topic: this.topic, acks: -1, messages: request });
  }
}
