import type { Logger } from 'pino';
import type { KafkaConnection } from '@tokencircuit/config';
import { loadTopicSettings, prepareTopics } from '@tokencircuit/kafka';
import { checkDatabase } from '@tokencircuit/storage';

/**
 * What a connected service checks before it builds anything: Postgres answers, accepts this login and is at
 * this build's migrations (never created nor migrated here: `npm run migrate` does that), Kafka answers
 * within KAFKA_CONNECT_TIMEOUT_MS, and every topic exists as defined (created unless KAFKA_TOPICS=validate).
 * The database comes first: a start on the wrong one must stop before it touches the fleet's topics.
 */
export async function checkInfrastructure(
  env: Record<string, string | undefined>,
  infra: { kafka: KafkaConnection; databaseUrl: string },
  log: Logger,
): Promise<void> {
  const topics = loadTopicSettings(env);
  const { level } = await checkDatabase(infra.databaseUrl);
  if (level.status === 'unreadable') {
    // A least-privilege service role may not read drizzle's history: the database exists and was migrated
    // once (the history is there), which is all this login can tell.
    log.warn('this database login may not read drizzle.__drizzle_migrations: migration level not checked');
  }
  await prepareTopics(infra.kafka, topics, log);
}
