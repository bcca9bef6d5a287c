import type { AddressInfo } from 'node:net';
import pg from 'pg';
import pino from 'pino';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DEFAULT_CONFIG, type TokenCircuitConfig } from '@tokencircuit/governance';
import { createTestDatabase, createTopic, randomTopic, testKafka, type TestDatabase } from '@tokencircuit/testing';
import { createApiApp } from '@tokencircuit/api-http';
import { parseApiKeys, parsePagerDutyWebhookSecrets } from '@tokencircuit/api-http';
import { KafkaAgentEventPublisher } from '@tokencircuit/api-http';
import { apiDatabase, type QuotaSettings } from '@tokencircuit/api-http';
import type { BudgetPublisher } from '@tokencircuit/api-http';
import { setServiceRolePasswords } from '@tokencircuit/storage';

// Roles are cluster-wide: every spec sets the same password, so parallel specs cannot disagree.
const API_ROLE_PASSWORD = 'tc-test-service-role-password';

async function apiRoleUrl(adminUrl: string): Promise<string> {
  await setServiceRolePasswords(adminUrl, { TOKENCIRCUIT_API_DB_PASSWORD: API_ROLE_PASSWORD });
  const url = new URL(adminUrl);
  url.username = 'tokencircuit_api';
  url.password = API_ROLE_PASSWORD;
  return url.toString();
}

/** The tenants of the e2e specs and their keys (what TOKENCIRCUIT_API_KEYS would hold). */
export const KEYS = {
  acme: 'acme-e2e-key-0123456789',
  globex: 'globex-e2e-key-0123456789',
  initech: 'initech-e2e-key-0123456789',
} as const;
export type Tenant = keyof typeof KEYS;

export interface ApiHarnessOptions {
  readonly maxBodyBytes?: number;
  /** Agent-events topic; a fresh single-partition one by default (order across the topic = order of publishing). */
  readonly topic?: string;
  readonly policy?: TokenCircuitConfig;
  /** TOKENCIRCUIT_PAGERDUTY_WEBHOOK_SECRETS ("tenant:secret,…"); none by default (the webhook route answers 404). */
  readonly pagerDutySecrets?: string;
  /** Per-tenant quotas; the documented defaults otherwise. */
  readonly quotas?: Partial<QuotaSettings>;
  /** API_METRICS_TENANT_LABELS: tenant names as /metrics labels (off by default, as in production). */
  readonly metricsTenantLabels?: boolean;
  /** A database to serve (the chaos run shares its projector's); a fresh migrated one by default, dropped on close. */
  readonly database?: TestDatabase;
  /** Where budget interventions are announced (a KafkaInterventionPublisher over the spec's topics); none by default. */
  readonly budgetPublisher?: BudgetPublisher;
  /** API_SPEND_LEASES: preflight serves from leases of line room; off by default here, so specs see exact line totals. */
  readonly spendLeases?: boolean;
}

export interface RequestOptions {
  readonly key?: string | null;
  readonly method?: string;
  readonly body?: unknown;
  /** A raw body, sent as is (for non-JSON and oversized payloads). */
  readonly rawBody?: string;
  readonly headers?: Record<string, string>;
}

/**
 * The real API (NestFactory, app.listen(0)) on a fresh migrated database of the shared Postgres and a
 * fresh topic of the shared Kafka: the same wiring as apps/api/src/main.ts, nothing stubbed.
 */
export class ApiHarness {
  private constructor(
    readonly app: NestFastifyApplication,
    readonly database: TestDatabase,
    readonly topic: string,
    readonly baseUrl: string,
    private readonly time: { now: Date },
    private readonly ownsDatabase: boolean,
  ) {}

  /** The API's clock (what resolutions are stamped with and preflight judges backoff against). */
  get now(): Date {
    return this.time.now;
  }
  set now(value: Date) {
    this.time.now = value;
  }

  static async start(options: ApiHarnessOptions = {}): Promise<ApiHarness> {
    const database = options.database ?? (await createTestDatabase('tc_api'));
    const topic = options.topic ?? (await createTopic(randomTopic('api-agent-events'), 1));
    const publisher = await KafkaAgentEventPublisher.connect(testKafka(), topic);
    // The API connects as its own login role (migration 0016), as docker-compose.yml wires it.
    const db = apiDatabase(new pg.Pool({ connectionString: await apiRoleUrl(database.url), max: 4 }));
    const apiKeys = parseApiKeys(
      Object.entries(KEYS)
        .map(([tenant, key]) => `${tenant}:${key}`)
        .join(','),
    );
    const time = { now: new Date('2026-01-05T10:00:05.000Z') };
    const app = await createApiApp({
      config: {
        apiKeys,
        API_MAX_BODY_BYTES: options.maxBodyBytes ?? 4 * 1024 * 1024,
        ...options.quotas,
        API_METRICS_TENANT_LABELS: options.metricsTenantLabels ?? false,
        API_SPEND_LEASES: options.spendLeases ?? false,
        pagerDutyWebhooks: parsePagerDutyWebhookSecrets(options.pagerDutySecrets),
      },
      policy: options.policy ?? DEFAULT_CONFIG,
      log: pino({ level: process.env.API_TEST_LOG_LEVEL ?? 'silent' }),
      publisher,
      db,
      ...(options.budgetPublisher ? { budgetPublisher: options.budgetPublisher } : {}),
      clock: () => time.now,
    });
    await app.listen(0, '127.0.0.1');
    const { port } = app.getHttpServer().address() as AddressInfo;
    return new ApiHarness(app, database, topic, `http://127.0.0.1:${port}`, time, options.database === undefined);
  }

  /** A request as a client sends it; `key` defaults to none. */
  async request(
    path: string,
    { key = null, method, body, rawBody, headers = {} }: RequestOptions = {},
  ): Promise<Response> {
    const sendsBody = body !== undefined || rawBody !== undefined;
    return fetch(`${this.baseUrl}${path}`, {
      method: method ?? (sendsBody ? 'POST' : 'GET'),
      headers: {
        ...(sendsBody ? { 'content-type': 'application/json' } : {}),
        ...(key !== null ? { authorization: `Bearer ${key}` } : {}),
        ...headers,
      },
      ...(sendsBody ? { body: rawBody ?? JSON.stringify(body) } : {}),
    });
  }

  /** A request with the tenant's key. */
  as(tenant: Tenant, path: string, options: Omit<RequestOptions, 'key'> = {}): Promise<Response> {
    return this.request(path, { ...options, key: KEYS[tenant] });
  }

  async close(): Promise<void> {
    await this.app.close();
    if (this.ownsDatabase) await this.database.drop();
  }
}
