import type { DynamicModule } from '@nestjs/common';
import pg from 'pg';
import type { Logger } from 'pino';
import type { TokenCircuitConfig } from '@tokencircuit/governance';
import { createKafka, retryAtStart } from '@tokencircuit/kafka';
import { pgDatabase } from '@tokencircuit/storage';
import type { DecisionConfig } from './decision-config.js';
import { DecisionModule, type DecisionPorts } from './decision.module.js';
import { KafkaAnchorSink } from './kafka-anchor-sink.js';
import { KafkaInterventionPublisher } from './kafka-intervention-publisher.js';
import { PgOutboxNotifications } from './pg-outbox-notifications.js';

/** The production adapters of the decision service's ports: a pg pool and LISTEN connection, a kafkajs producer. */
export async function kafkaPostgresDecisionPorts(config: DecisionConfig, log: Logger): Promise<DecisionPorts> {
  const producer = createKafka(config.kafka, 'decision').producer({
    idempotent: true,
    maxInFlightRequests: 1,
    allowAutoTopicCreation: false,
  });
  // The idempotent producer asks for a producer id on connect: retried while a new cluster is electing.
  await retryAtStart('the decision service producer', () => producer.connect(), {
    onRetry: (error, attempt, delayMs) =>
      log.warn({ err: error, attempt, delayMs }, 'kafka not ready for the decision service yet; retrying'),
  });
  return {
    db: pgDatabase(new pg.Pool({ connectionString: config.DATABASE_URL, max: config.DATABASE_POOL_SIZE })),
    publisher: Object.assign(
      new KafkaInterventionPublisher(producer, config.INTERVENTIONS_TOPIC, config.EPISODES_TOPIC),
      {
        close: () => producer.disconnect(),
      },
    ),
    notifications: new PgOutboxNotifications(config.DATABASE_URL, config.DECISION_POLL_INTERVAL_MS, log),
    anchors: new KafkaAnchorSink(producer, config.AUDIT_ANCHORS_TOPIC),
  };
}

/** The decision module on Kafka and Postgres: what apps/decision and the connected `npm start` run. */
export async function kafkaPostgresDecisionModule(
  config: DecisionConfig,
  policy: TokenCircuitConfig,
  log: Logger,
): Promise<DynamicModule> {
  return DecisionModule.forRoot({
    ports: await kafkaPostgresDecisionPorts(config, log),
    settings: config,
    policy,
    log,
  });
}
