import type { Logger } from 'pino';
import type { KafkaConnection } from '@tokencircuit/config';
import { loadTopicSettings, prepareTopics } from '@tokencircuit/kafka';
import { checkDatabase } from '@tokencircuit/storage';

/**
 * What a connected service checks before it builds anything: Postgres answers, Kafka answers within
 * KAFKA_CONNECT_TIMEOUT_MS, and every topic exists as defined (created unless KAFKA_TOPICS=validate).
 */
export async function checkInfrastructure(
  env: Record<string, string | undefined>,
  infra: { kafka: KafkaConnection; databaseUrl: string },
  log: Logger,
): Promise<void> {
  const topics = loadTopicSettings(env);
  await checkDatabase(infra.databaseUrl);
  await prepareTopics(infra.kafka, topics, log);
}
