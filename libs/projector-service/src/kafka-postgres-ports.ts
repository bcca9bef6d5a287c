import type { DynamicModule } from '@nestjs/common';
import pg from 'pg';
import type { Logger } from 'pino';
import type { TokenCircuitConfig } from '@tokencircuit/governance';
import { createKafka, retryAtStart } from '@tokencircuit/kafka';
import { pgDatabase } from '@tokencircuit/storage';
import { KafkaDeadLetterSink } from './kafka-dead-letter-sink.js';
import { KafkaEventSource } from './kafka-event-source.js';
import type { ProjectorConfig } from './projector-config.js';
import { ProjectorModule, type ProjectorPorts } from './projector.module.js';

/** The production adapters of the projector's ports: a kafkajs consumer and DLQ producer, a pg pool. */
export async function kafkaPostgresProjectorPorts(config: ProjectorConfig, log: Logger): Promise<ProjectorPorts> {
  const kafka = createKafka(config.kafka, 'projector');
  const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1, allowAutoTopicCreation: false });
  // The idempotent producer asks for a producer id on connect: retried while a new cluster is electing.
  await retryAtStart('the projector dead-letter producer', () => producer.connect(), {
    onRetry: (error, attempt, delayMs) =>
      log.warn({ err: error, attempt, delayMs }, 'kafka not ready for the projector yet; retrying'),
  });
  return {
    db: pgDatabase(new pg.Pool({ connectionString: config.DATABASE_URL, max: config.DATABASE_POOL_SIZE })),
    deadLetters: new KafkaDeadLetterSink(producer, config.DLQ_TOPIC),
    source: new KafkaEventSource(
      kafka,
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
      log,
      `kafka ${config.kafka.brokers.join(',')}`,
    ),
  };
}

/** The projector module on Kafka and Postgres: what apps/projector and the connected `npm start` run. */
export async function kafkaPostgresProjectorModule(
  config: ProjectorConfig,
  policy: TokenCircuitConfig,
  log: Logger,
): Promise<DynamicModule> {
  return ProjectorModule.forRoot({
    ports: await kafkaPostgresProjectorPorts(config, log),
    settings: config,
    policy,
    log,
  });
}
