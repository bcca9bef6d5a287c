import { NestFactory } from '@nestjs/core';
import type { Logger } from 'pino';
import { KafkaAgentEventPublisher, KafkaLiveFeed, apiDatabase } from '@tokencircuit/api-http';
import { KafkaAnchorSink, KafkaInterventionPublisher, PgOutboxNotifications } from '@tokencircuit/decision-service';
import { KafkaDeliveryDeadLetters, KafkaEpisodeSource } from '@tokencircuit/notifier-service';
import { KafkaDeadLetterSink, KafkaEventSource } from '@tokencircuit/projector-service';
import { checkInfrastructure } from '@tokencircuit/service-kit';
import type { FleetAdapters } from './fleet-adapters.js';
import type { ConnectedSettings } from './fleet-settings.js';
import { Infrastructure } from './infrastructure.js';
import { listening } from './listening.js';

const missing = (name: string): never => {
  throw new Error(`composition: the ${name} module was asked for but its settings were not loaded`);
};

/**
 * The connected adapters: every module's ports over one Infrastructure (a kafkajs client, one idempotent
 * producer, a pg pool per role), each module other than the API on its own health and metrics port. With
 * `checkWith` (a process's environment: its topic settings), checks the database and the topics first and
 * never creates nor migrates (issue 27): a missing or unmigrated database is exit 4, a cluster that never
 * answers exit 3. A spec's harness, on topics and a database it made, leaves it out.
 */
export async function kafkaPostgresAdapters(
  settings: ConnectedSettings,
  log: Logger,
  options: { readonly clientId: string; readonly checkWith?: Record<string, string | undefined> },
): Promise<FleetAdapters> {
  const any = settings.api ?? settings.projector ?? settings.decision ?? settings.notifier?.settings ?? missing('any');
  if (options.checkWith) {
    const infra = { kafka: any.kafka, databaseUrl: any.DATABASE_URL };
    await checkInfrastructure(options.checkWith, infra, log.child({ app: 'topics' }));
  }
  const clientId = options.clientId;
  const infra = new Infrastructure(any.kafka, clientId, log);
  const brokers = any.kafka.brokers.join(',');
  const ownPort = {
    projector: () => settings.projector ?? missing('projector'),
    decision: () => settings.decision ?? missing('decision'),
    notifier: () => settings.notifier?.settings ?? missing('notifier'),
  };
  return {
    async projector(moduleLog) {
      const config = ownPort.projector();
      const producer = await infra.sender('projector dead-letter');
      return {
        db: infra.database(config.DATABASE_URL, config.DATABASE_POOL_SIZE),
        deadLetters: new KafkaDeadLetterSink(producer, config.DLQ_TOPIC),
        source: new KafkaEventSource(
          infra.kafka,
          {
            topic: config.AGENT_EVENTS_TOPIC,
            groupId: config.PROJECTOR_GROUP_ID,
            sessionTimeoutMs: config.PROJECTOR_SESSION_TIMEOUT_MS,
            maxBytesPerPartition: config.PROJECTOR_MAX_BYTES_PER_PARTITION,
            chunkSize: config.PROJECTOR_CHUNK_SIZE,
            partitionsConcurrently: config.PROJECTOR_PARTITIONS_CONCURRENTLY,
            transactionsInFlight: config.PROJECTOR_TRANSACTIONS_IN_FLIGHT,
            parkingAttempts: config.PROJECTOR_PARKING_ATTEMPTS,
          },
          moduleLog,
          `kafka ${brokers}`,
        ),
      };
    },
    async decision(moduleLog) {
      const config = ownPort.decision();
      const producer = await infra.sender('decision service');
      return {
        db: infra.database(config.DATABASE_URL, config.DATABASE_POOL_SIZE),
        // The producer is the process's: the infrastructure disconnects it after every module stopped.
        publisher: new KafkaInterventionPublisher(producer, config.INTERVENTIONS_TOPIC, config.EPISODES_TOPIC),
        // One more connection of the decision role's pool, held for LISTEN.
        notifications: new PgOutboxNotifications(
          infra.pool(config.DATABASE_URL, 1),
          config.DECISION_POLL_INTERVAL_MS,
          moduleLog,
        ),
        anchors: new KafkaAnchorSink(producer, config.AUDIT_ANCHORS_TOPIC),
      };
    },
    async notifier(moduleLog) {
      const config = ownPort.notifier();
      const producer = await infra.sender('notifier dead-letter');
      const db = infra.database(config.DATABASE_URL, config.DATABASE_POOL_SIZE);
      return {
        db,
        source: (metrics) =>
          new KafkaEpisodeSource(
            infra.kafka,
            db,
            { topic: config.EPISODES_TOPIC, groupId: config.NOTIFIER_GROUP_ID, startFrom: config.NOTIFIER_START_FROM },
            metrics,
            moduleLog,
            `kafka ${brokers} ${config.EPISODES_TOPIC} (group ${config.NOTIFIER_GROUP_ID})`,
          ),
        deadLetters: new KafkaDeliveryDeadLetters(producer, config.NOTIFIER_DLQ_TOPIC),
      };
    },
    async api() {
      const config = settings.api ?? missing('api');
      return {
        liveFeed: new KafkaLiveFeed(infra.kafka, [config.INTERVENTIONS_TOPIC, config.EPISODES_TOPIC]),
        // Its own producer: ingest retries a send 5 times, the services' producer retries longer.
        publisher: await KafkaAgentEventPublisher.connect(infra.kafka, config.AGENT_EVENTS_TOPIC),
        // The pool is the adapters' to end; the database's close stops its preflight cache's LISTEN.
        db: apiDatabase(infra.pool(config.DATABASE_URL, config.DATABASE_POOL_SIZE), {
          ownsPool: false,
          candidateCacheEntries: config.API_PREFLIGHT_CACHE_ENTRIES,
        }),
        // Budget interventions and their episode steps, where the decision service publishes its own.
        budgetPublisher: new KafkaInterventionPublisher(
          await infra.sender('api budget interventions'),
          config.INTERVENTIONS_TOPIC,
          config.EPISODES_TOPIC,
        ),
      };
    },
    async host(name, module) {
      const { port, host } = {
        projector: () => ({
          port: ownPort.projector().PROJECTOR_HTTP_PORT,
          host: ownPort.projector().PROJECTOR_HTTP_HOST,
        }),
        decision: () => ({ port: ownPort.decision().DECISION_HTTP_PORT, host: ownPort.decision().DECISION_HTTP_HOST }),
        notifier: () => ({ port: ownPort.notifier().NOTIFIER_HTTP_PORT, host: ownPort.notifier().NOTIFIER_HTTP_HOST }),
      }[name]();
      const variable = `${name.toUpperCase()}_HTTP_PORT`;
      const app = await listening(await NestFactory.create(module, { logger: false }), { port, host, variable });
      log.info({ app: name, url: `http://${host}:${port}` }, `${name} listening`);
      return app;
    },
    close: () => infra.close(),
  };
}
