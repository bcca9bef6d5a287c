import { z } from 'zod';
import { TOPICS } from '@tokencircuit/contracts';
import {
  loadAll,
  loadKafkaConnection,
  parseEnv,
  port,
  positiveInt,
  type KafkaConnection,
  databaseUrl,
  logLevel,
  policyFile,
  booleanFlag,
} from '@tokencircuit/config';
import type { PagerDutySecretRing } from '@tokencircuit/integrations';
import { LEASE_FLUSH_MS } from './spend/line-leases.js';
import { parseApiKeys, type ApiKeyRing } from './auth/api-keys.js';
import { PAGERDUTY_SECRETS_VARIABLE, parsePagerDutyWebhookSecrets } from './auth/pagerduty-webhook-secrets.js';
import { MAX_BATCH_EVENTS } from './ingest/ingest-request.js';
import { MAX_READ_COST } from './quota/read-cost.js';

/** What the API module itself needs besides its keys and ports (the embedded mode reads the same). */
const apiSettingsSchema = z.object({
  /**
   * Largest request body accepted, in bytes. A batch holds at most 500 events of at most 64 KiB each;
   * the default admits realistic batches while bounding what one request can make us buffer.
   */
  API_MAX_BODY_BYTES: positiveInt
    .min(64 * 1024)
    .max(64 * 1024 * 1024)
    .default(4 * 1024 * 1024),
  /**
   * Per-tenant quotas (token buckets; a tenant's keys and dashboard sessions share them), so one tenant
   * cannot starve the others. Preflight counts requests: the default is twice the 1,000 req/s its latency
   * goal is measured at (docs/benchmarks.md). Ingest counts events (a batch of n costs n); its burst must
   * hold the largest batch, or a full batch could never pass.
   */
  API_PREFLIGHT_PER_SECOND: positiveInt.max(1_000_000).default(2_000),
  API_PREFLIGHT_BURST: positiveInt.max(10_000_000).default(4_000),
  API_INGEST_EVENTS_PER_SECOND: positiveInt.max(1_000_000).default(2_000),
  API_INGEST_BURST_EVENTS: positiveInt
    .min(MAX_BATCH_EVENTS, { message: `must hold the largest batch (${MAX_BATCH_EVENTS} events)` })
    .max(10_000_000)
    .default(10_000),
  /**
   * Per-tenant read quota, in read units (issue 28: unmetered reads let one tenant starve the others). A read
   * costs by the rows it may touch (quota/read-cost.ts): a page of a listing 1 + limit/100, a page of chain
   * verification 1 + limit/10 (≈ 0.1 ms of database time per chain row). The burst must hold the dearest
   * single read (a full verification page with an anchor check).
   */
  API_READ_UNITS_PER_SECOND: positiveInt.max(1_000_000).default(200),
  API_READ_BURST_UNITS: positiveInt
    .min(MAX_READ_COST, { message: `must hold the dearest read (${MAX_READ_COST} units)` })
    .max(10_000_000)
    .default(2_000),
  /**
   * PagerDuty webhook deliveries per second per signing secret's tenant (they are checked, read and published
   * like a resolution); a delivery beyond the quota is a 429, which PagerDuty retries.
   */
  API_PAGERDUTY_WEBHOOKS_PER_SECOND: positiveInt.max(100_000).default(10),
  API_PAGERDUTY_WEBHOOK_BURST: positiveInt.max(1_000_000).default(100),
  /**
   * Dashboard sessions and unredeemed login links are held per tenant (a tenant's next one ends its own
   * oldest), and sign-ins (the form, or minting a login link) are rate-limited per tenant.
   */
  API_DASHBOARD_SESSIONS_PER_TENANT: positiveInt.max(1_000_000).default(1_000),
  API_DASHBOARD_LOGIN_LINKS_PER_TENANT: positiveInt.max(1_000_000).default(100),
  API_DASHBOARD_SIGN_INS_PER_MINUTE: positiveInt.max(1_000_000).default(30),
  API_DASHBOARD_SIGN_IN_BURST: positiveInt.max(1_000_000).default(30),
  /**
   * Time a client has to send a whole request, headers and body, in ms; then 408 and the connection closes.
   * Without it (Fastify's default is none) a client trickling a body holds a connection and its buffer forever.
   * A live dashboard stream is a response, not a request: it is not cut by this.
   */
  API_REQUEST_TIMEOUT_MS: positiveInt.min(1_000).max(600_000).default(30_000),
  /**
   * Whether /metrics labels per-tenant series with the tenant's name (tokencircuit_api_quota_refusals_total).
   * Off by default: /metrics answers without authentication (Prometheus scrapes it), and tenant names are
   * customers' names; turn it on where only the operator's network reaches /metrics (docs/operations.md).
   */
  API_METRICS_TENANT_LABELS: booleanFlag.default(false),
  /**
   * Whether preflight serves spend reservations from leases of line room this process took (docs/budgets.md,
   * "Leases"): no database round trip for the reservation while every covering line has one with room. Budgets stay
   * hard limits either way; with leases, room one process leased and has not used is not available to another
   * until it is used, returned (idle, shutdown) or expires.
   */
  API_SPEND_LEASES: booleanFlag.default(true),
  /**
   * How often (ms) what leases served is written as reservations (docs/budgets.md, "Leases"). Each write is a
   * transaction of its own: longer batches fewer of them, at the price of a settle of a call served meanwhile
   * writing it first. What a crash loses of them is covered by the leases' room (their expiry returns it).
   */
  API_SPEND_LEASE_FLUSH_MS: positiveInt.min(5).max(5_000).default(LEASE_FLUSH_MS),
});

export type ApiSettings = z.infer<typeof apiSettingsSchema> & {
  /** TOKENCIRCUIT_PAGERDUTY_WEBHOOK_SECRETS: which tenant each PagerDuty webhook secret speaks for. */
  readonly pagerDutyWebhooks: PagerDutySecretRing;
};

/** The module's settings alone, for hosts that bring their own ports and keys (the embedded mode). */
export function loadApiSettings(env: Record<string, string | undefined>): ApiSettings {
  // parseEnv quotes bad values in its messages, so the secret variable is parsed on its own.
  const { [PAGERDUTY_SECRETS_VARIABLE]: secrets, ...rest } = env;
  const [parsed, pagerDutyWebhooks] = loadAll(
    () => parseEnv(apiSettingsSchema, rest),
    () => parsePagerDutyWebhookSecrets(secrets),
  );
  return { ...parsed, pagerDutyWebhooks };
}

const apiEnvSchema = apiSettingsSchema.extend({
  DATABASE_URL: databaseUrl,
  DATABASE_POOL_SIZE: positiveInt.max(100).default(8),
  /** Preflight selections one API process keeps in memory, kept exact by failure_state's notifications; 0 = off. */
  API_PREFLIGHT_CACHE_ENTRIES: z.coerce.number().int().min(0).max(10_000_000).default(20_000),
  AGENT_EVENTS_TOPIC: z.string().min(1).default(TOPICS.agentEvents.name),
  /** The dashboard's live view follows these two (the decision service's INTERVENTIONS_TOPIC and EPISODES_TOPIC). */
  INTERVENTIONS_TOPIC: z.string().min(1).default(TOPICS.interventions.name),
  EPISODES_TOPIC: z.string().min(1).default(TOPICS.episodes.name),
  API_HTTP_PORT: port.default(8080),
  API_HTTP_HOST: z.string().min(1).default('127.0.0.1'),
  TOKENCIRCUIT_POLICY_FILE: policyFile,
  LOG_LEVEL: logLevel,
});

/** The API's validated configuration; TOKENCIRCUIT_API_KEYS arrives as a key ring of digests, never as text. */
export type ApiConfig = z.infer<typeof apiEnvSchema> & {
  readonly apiKeys: ApiKeyRing;
  readonly pagerDutyWebhooks: PagerDutySecretRing;
  readonly kafka: KafkaConnection;
};

/** Validated once at start; a ConfigError lists every variable to fix (API keys are never echoed back). */
export function loadApiConfig(env: Record<string, string | undefined>): ApiConfig {
  // parseEnv quotes bad values in its messages, so the secret variable is parsed on its own.
  const { TOKENCIRCUIT_API_KEYS: keys, [PAGERDUTY_SECRETS_VARIABLE]: secrets, ...rest } = env;
  const [parsed, apiKeys, pagerDutyWebhooks, kafka] = loadAll(
    () => parseEnv(apiEnvSchema, rest),
    () => parseApiKeys(keys),
    () => parsePagerDutyWebhookSecrets(secrets),
    () => loadKafkaConnection(env),
  );
  return { ...parsed, apiKeys, pagerDutyWebhooks, kafka };
}
