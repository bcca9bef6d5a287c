import pg from 'pg';
import { createKafka } from '@tokencircuit/kafka';
import type { ApiConfig } from './api-config.js';
import type { ApiModuleOptions } from './api.module.js';
import { KafkaLiveFeed } from './dashboard/kafka-live-feed.js';
import { KafkaAgentEventPublisher } from './ingest/kafka-agent-event-publisher.js';
import { pgApiDatabase } from './pg-api-database.js';

/**
 * The production adapters of the API's ports: a kafkajs producer for ingest, a pg pool for reads, and a
 * consumer of the interventions and episode topics for the dashboard's live view.
 */
export async function kafkaPostgresApiPorts(
  config: ApiConfig,
): Promise<Pick<ApiModuleOptions, 'publisher' | 'db' | 'liveFeed'>> {
  return {
    liveFeed: new KafkaLiveFeed(createKafka(config.kafka, 'api-dashboard'), [
      config.INTERVENTIONS_TOPIC,
      config.EPISODES_TOPIC,
    ]),
    publisher: await KafkaAgentEventPublisher.connect(createKafka(config.kafka, 'api'), config.AGENT_EVENTS_TOPIC),
    db: pgApiDatabase(new pg.Pool({ connectionString: config.DATABASE_URL, max: config.DATABASE_POOL_SIZE })),
  };
}
