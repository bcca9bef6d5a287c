import type { Producer } from 'kafkajs';
import {
  episodeRecord,
  interventionRecord,
  TOPICS,
  type EpisodeEventData,
  type InterventionData,
  type KafkaRecord,
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
    await this.send(this.topic, interventions.map(interventionRecord));
    // After the interventions: a subscriber of both never sees an episode step before what triggered it.
    await this.send(this.episodesTopic, episodes.map(episodeRecord));
  }

  private async send(topic: string, records: readonly KafkaRecord[]): Promise<void> {
    const messages = records.map((record) => ({ key: record.key, value: record.value, headers: record.headers }));
    for (const request of sizeBoundedRequests(messages, messageBytes)) {
      await this.producer.send({ topic, acks: -1, messages: request });
    }
  }
}
