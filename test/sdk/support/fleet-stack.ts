import type { AddressInfo } from 'node:net';
import type { INestApplication } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import pg from 'pg';
import pino from 'pino';
import { TOPICS } from '@tokencircuit/contracts';
import { DEFAULT_CONFIG, type TokenCircuitConfig } from '@tokencircuit/governance';
import type { Transport } from '@tokencircuit/sdk';
import {
  createTestDatabase,
  createTopic,
  randomGroupId,
  randomTopic,
  testBrokers,
  testKafka,
  type TestDatabase,
} from '@tokencircuit/testing';
import { createApiApp } from '@tokencircuit/api-http';
import { parseApiKeys } from '@tokencircuit/api-http';
import { KafkaAgentEventPublisher } from '@tokencircuit/api-http';
import { apiDatabase } from '@tokencircuit/api-http';
import { composeKafkaPostgresModule } from '@tokencircuit/composition';
import { startProjectorInProcess } from '../../projector/support/projector-harness.js';

/** Tenants of the SDK specs and their API keys (what TOKENCIRCUIT_API_KEYS would hold). */
export const TENANT_KEYS = { acme: 'acme-sdk-e2e-key-0123456789', globex: 'globex-sdk-e2e-key-0123456789' } as const;
export type Tenant = keyof typeof TENANT_KEYS;

/**
 * The whole backend in this process, exactly as production wires it, on a fresh database and fresh
 * topics of the shared Kafka and Postgres: projector (Kafka → failure_state), decision service
 * (outbox → interventions topic) and the HTTP API (ingest, preflight, audit). Nothing is stubbed.
 */
export class FleetStack {
  private constructor(
    readonly database: TestDatabase,
    readonly topics: {
      readonly agentEvents: string;
      readonly interventions: string;
      readonly episodes: string;
      readonly dlq: string;
    },
    private readonly apps: readonly INestApplication[],
    readonly apiUrl: string,
  ) {}

  static async start(policy: TokenCircuitConfig = DEFAULT_CONFIG): Promise<FleetStack> {
    const database = await createTestDatabase('tc_sdk');
    const topics = {
      agentEvents: await createTopic(randomTopic('sdk-agent-events'), TOPICS.agentEvents.partitions),
      interventions: await createTopic(randomTopic('sdk-interventions'), TOPICS.interventions.partitions),
      // Its own episodes topic, so a notifier started beside the stack reads only this stack's episodes.
      episodes: await createTopic(randomTopic('sdk-episodes'), TOPICS.episodes.partitions),
      dlq: await createTopic(randomTopic('sdk-dlq'), 1),
    };
    const apps: INestApplication[] = [];
    try {
      apps.push(
        await startProjectorInProcess(
          {
            databaseUrl: database.url,
            topic: topics.agentEvents,
            dlqTopic: topics.dlq,
            groupId: randomGroupId('sdk-projector'),
          },
          policy,
        ),
      );
      const decisionEnv = {
        KAFKA_BROKERS: testBrokers().join(','),
        DATABASE_URL: database.url,
        INTERVENTIONS_TOPIC: topics.interventions,
        EPISODES_TOPIC: topics.episodes,
        DECISION_HTTP_PORT: '0',
        DECISION_POLL_INTERVAL_MS: '250',
        LOG_LEVEL: 'warn',
      };
      apps.push(
        await composeKafkaPostgresModule<INestApplication>('decision', decisionEnv, policy, pino({ level: 'warn' })),
      );

      const api: NestFastifyApplication = await createApiApp({
        config: {
          apiKeys: parseApiKeys(
            Object.entries(TENANT_KEYS)
              .map(([tenant, key]) => `${tenant}:${key}`)
              .join(','),
          ),
          API_MAX_BODY_BYTES: 1024 * 1024,
        },
        policy,
        log: pino({ level: 'silent' }),
        publisher: await KafkaAgentEventPublisher.connect(testKafka(), topics.agentEvents),
        db: apiDatabase(new pg.Pool({ connectionString: database.url, max: 4 })),
      });
      await api.listen(0, '127.0.0.1');
      apps.push(api);
      const { port } = api.getHttpServer().address() as AddressInfo;
      return new FleetStack(database, topics, apps, `http://127.0.0.1:${port}`);
    } catch (error) {
      for (const app of apps.reverse()) await app.close().catch(() => undefined);
      await database.drop();
      throw error;
    }
  }

  /** The SDK's Kafka transport on this stack's topics, with the API for preflight. */
  kafkaTransport(tenant: Tenant = 'acme'): Transport {
    return {
      kafka: { kafka: testKafka(), topic: this.topics.agentEvents, interventionsTopic: this.topics.interventions },
      api: { url: this.apiUrl, apiKey: TENANT_KEYS[tenant] },
    };
  }

  /** The SDK's HTTP transport: ingest, preflight and audit polling through the API only. */
  httpTransport(tenant: Tenant = 'acme', apiKey: string = TENANT_KEYS[tenant]): Transport {
    return { http: { url: this.apiUrl, apiKey } };
  }

  /** failure_state.status of a key, as the projector stored it. */
  async stateStatus(keyId: string): Promise<string | null> {
    const { rows } = await this.database.pool.query<{ status: string }>(
      'SELECT status FROM failure_state WHERE key_id = $1',
      [keyId],
    );
    return rows[0]?.status ?? null;
  }

  /** Agent events the projector applied, by id. */
  async appliedEventIds(): Promise<Set<string>> {
    const { rows } = await this.database.pool.query<{ id: string }>('SELECT id FROM agent_events');
    return new Set(rows.map((row) => row.id));
  }

  async close(): Promise<void> {
    for (const app of [...this.apps].reverse()) await app.close();
    await this.database.drop();
  }
}
