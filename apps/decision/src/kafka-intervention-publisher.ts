import type { Producer } from 'kafkajs';
import { interventionToCloudEvent, partitionKey, toKafkaRecord, type InterventionData } from '@tokencircuit/contracts';
import type { InterventionPublisher } from '@tokencircuit/decision-relay';

/** Interventions as structured CloudEvents keyed tenant/run; acks from all in-sync replicas before the outbox commits. */
export class KafkaInterventionPublisher implements InterventionPublisher {
  constructor(
    private readonly producer: Producer,
    private readonly topic: string,
  ) {}

  async publish(interventions: readonly InterventionData[]): Promise<void> {
    if (interventions.length === 0) return;
    await this.producer.send({
      topic: this.topic,
      acks: -1,
      messages: interventions.map((intervention) => {
        const record = toKafkaRecord(
          interventionToCloudEvent(intervention),
          'structured',
          partitionKey(intervention.tenant, intervention.run),
        );
        return { key: record.key, value: record.value, headers: record.headers };
      }),
    });
  }
}
