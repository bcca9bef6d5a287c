import { Kafka, logLevel } from 'kafkajs';
import type {} from 'vitest';
import type { TestProject } from 'vitest/node';
import { TOPICS } from '@tokencircuit/contracts';
import { ensureTopics } from '@tokencircuit/testing';
import { resolveDatabase } from './database-resolution.js';
import { resolveKafka } from './kafka-resolution.js';

/** Creates the product topics with their partition counts; safe on a broker reused across runs. */
async function createProductTopics(brokers: string): Promise<void> {
  const kafka = new Kafka({
    clientId: 'tokencircuit-int-setup',
    brokers: brokers.split(','),
    logLevel: logLevel.NOTHING,
  });
  const admin = kafka.admin();
  await admin.connect();
  try {
    await ensureTopics(admin, Object.values(TOPICS));
  } finally {
    await admin.disconnect();
  }
}

/**
 * Resolves the infrastructure every integration test shares, in a fixed order, and says which it took:
 *   Postgres: DATABASE_URL → 127.0.0.1:5432 → a postgres container → an error naming the three.
 *   Kafka:    KAFKA_BROKERS → scripts/kafka/kafka.sh (Java present) → an apache/kafka container → an error.
 * Never a silent skip. What this run started, its teardown stops; a broker someone else started stays.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const teardowns: Array<() => Promise<void>> = [];
  const teardown = async (): Promise<void> => {
    for (const step of teardowns.reverse()) await step();
  };
  try {
    const database = await resolveDatabase();
    if (database.teardown) teardowns.push(database.teardown);
    const kafka = await resolveKafka(`vitest-${process.pid}`);
    if (kafka.teardown) teardowns.push(kafka.teardown);
    await createProductTopics(kafka.brokers);

    console.info(`[int global setup] Postgres: ${database.source}`);
    console.info(`[int global setup] Kafka ${kafka.brokers}: ${kafka.source}`);
    project.provide('databaseUrl', database.url);
    project.provide('kafkaBrokers', kafka.brokers);
  } catch (error) {
    await teardown();
    throw error;
  }
  return teardown;
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** A superuser URL to a server where tests may CREATE/DROP DATABASE. */
    databaseUrl: string;
    /** Comma-separated bootstrap brokers of a real Kafka. */
    kafkaBrokers: string;
  }
}
