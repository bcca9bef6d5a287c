import type { DynamicModule } from '@nestjs/common';
import pg from 'pg';
import type { Logger } from 'pino';
import { createKafka, retryAtStart } from '@tokencircuit/kafka';
import { pgDatabase } from '@tokencircuit/storage';
import { KafkaDeliveryDeadLetters } from './kafka-delivery-dead-letters.js';
import { KafkaEpisodeSource } from './kafka-episode-source.js';
import type { NotifierConfig } from './notifier-config.js';
import { NotifierModule, type NotifierPorts } from './notifier.module.js';

/** The production adapters of the notifier's ports: a pg pool, a kafkajs consumer and DLQ producer. */
export async function kafkaPostgresNotifierPorts(config: NotifierConfig, log: Logger): Promise<NotifierPorts> {
  const kafka = createKafka(config.kafka, 'notifier');
  const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1, allowAutoTopicCreation: false });
  // The idempotent producer asks for a producer id on connect: retried while a new cluster is electing.
  await retryAtStart('the notifier dead-letter producer', () => producer.connect(), {
    onRetry: (error, attempt, delayMs) =>
      log.warn({ err: error, attempt, delayMs }, 'kafka not ready for the notifier yet; retrying'),
  });
  const db = pgDatabase(new pg.Pool({ connectionString: config.DATABASE_URL, max: config.DATABASE_POOL_SIZE }));
  return {
    db,
    source: (metrics) =>
      new KafkaEpisodeSource(
        kafka,
        db,
        { topic: config.EPISODES_TOPIC, groupId: config.NOTIFIER_GROUP_ID, startFrom: config.NOTIFIER_START_FROM },
        metrics,
        log,
        `kafka ${config.kafka.brokers.join(',')} ${config.EPISODES_TOPIC} (group ${config.NOTIFIER_GROUP_ID})`,
      ),
    deadLetters: new KafkaDeliveryDeadLetters(producer, config.NOTIFIER_DLQ_TOPIC),
  };
}

/** The notifier module on Kafka and Postgres: what apps/notifier and the connected `npm start` run. */
export async function kafkaPostgresNotifierModule(config: NotifierConfig, log: Logger): Promise<DynamicModule> {
  return NotifierModule.forRoot({
    ports: await kafkaPostgresNotifierPorts(config, log),
    settings: config,
    notify: config.notify,
    log,
  });
}
