import pg from 'pg';
import pino from 'pino';
import { ConfigError, loadPolicy } from '@tokencircuit/config';
import { createKafka } from '@tokencircuit/kafka';
import {
  createApiApp,
  KafkaAgentEventPublisher,
  KafkaLiveFeed,
  loadApiConfig,
  pgApiDatabase,
} from '@tokencircuit/api-http';

/** Production wiring: Postgres through node-postgres, events to Kafka. Bad config exits 2, other start failures 1. */
async function main(): Promise<void> {
  const config = loadApiConfig(process.env);
  const policy = loadPolicy(config.TOKENCIRCUIT_POLICY_FILE);
  const log = pino({ level: config.LOG_LEVEL, base: { app: 'api' } });
  const publisher = await KafkaAgentEventPublisher.connect(createKafka(config.kafka, 'api'), config.AGENT_EVENTS_TOPIC);
  const db = pgApiDatabase(new pg.Pool({ connectionString: config.DATABASE_URL, max: config.DATABASE_POOL_SIZE }));
  const liveFeed = new KafkaLiveFeed(createKafka(config.kafka, 'api-dashboard'), config.INTERVENTIONS_TOPIC);
  const app = await createApiApp({ config, policy, log, publisher, db, liveFeed });
  app.enableShutdownHooks();
  await app.listen(config.API_HTTP_PORT, config.API_HTTP_HOST);
  log.info(
    { url: `http://${config.API_HTTP_HOST}:${config.API_HTTP_PORT}`, tenants: config.apiKeys.tenants.length },
    'api listening',
  );
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    process.stderr.write(`api: ${error.message}\n`);
    process.exit(2);
  }
  process.stderr.write(`api failed to start: ${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
