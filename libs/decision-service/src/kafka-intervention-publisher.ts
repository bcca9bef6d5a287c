import type { Producer } from 'kafkajs';
import {
  episodeToCloudEvent,
  interventionToCloudEvent,
  partitionKey,
  toKafkaRecord,
  TOPICS,
  type CloudEvent,
  type EpisodeEventData,
  type InterventionData,
} from '@tokencircuit/contracts';
import type { InterventionPublisher } from '@tokencircuit/decision-relay';
import { messageBytes, sizeBoundedRequests } from '@tokencircuit/kafka';

/**
 * Interventions as structured CloudEvents keyed tenant/run; acks from all in-sync replicas before the
 * outbox commits. A round's interventions go in size-bounded requests: one oversized request would be
 * refused by the broker on every retry and stall the outbox for good.
 */
export class KafkaInterventionPublisher implements InterventionPublisher {
  constructor(
    private readonly producer: Producer,
    private readonly topic: string,
    private readonly episodesTopic: string = TOPICS.episodes.name,
  ) {}

  async publish(interventions: readonly InterventionData[], episodes: readonly EpisodeEventData[] = []): Promise<void> {
    await this.send(
      this.topic,
      interventions.map((i) => [interventionToCloudEvent(i), partitionKey(i.tenant, i.run)] as const),
    );
    // After the interventions: a subscriber of both never sees an episode step before what triggered it.
    await this.send(
      this.episodesTopic,
      episodes.map((e) => [episodeToCloudEvent(e), episodePartitionKey(e)] as const),
    );
  }

  private async send(topic: string, events: readonly (readonly [CloudEvent, string])[]): Promise<void> {
    const messages = events.map(([event, key]) => {
      const record = toKafkaRecord(event, 'structured', key);
      return { key: record.key, value: record.value, headers: record.headers };
    });
    for (const request of sizeBoundedRequests(messages, messageBytes)) {
      await this.producer.send({ topic, acks: -1, messages: request });
    }
  }
}

/** Every step of one key on one partition, in order: fleet keys by tenant, run keys by tenant/run. */
export const episodePartitionKey = (e: EpisodeEventData): string =>
  partitionKey(e.tenant, e.scope === 'fleet' ? null : e.run);
