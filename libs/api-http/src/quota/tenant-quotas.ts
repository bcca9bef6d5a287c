import type { preHandlerHookHandler } from 'fastify';
import type { ApiMetrics } from '../api-metrics.js';
import { loadApiSettings, type ApiSettings } from '../api-config.js';
import { requestTenant } from '../auth/request-tenant.js';
import type { Clock } from '../clock.js';
import { TooManyRequestsError } from '../http/api-errors.js';
import { MAX_BATCH_EVENTS } from '../ingest/ingest-request.js';
import { readCost } from './read-cost.js';
import { TokenBuckets } from './token-bucket.js';

/** The capacity settings: per-tenant quotas, dashboard session caps and the request timeout. */
export type QuotaSettings = Pick<
  ApiSettings,
  | 'API_PREFLIGHT_PER_SECOND'
  | 'API_PREFLIGHT_BURST'
  | 'API_INGEST_EVENTS_PER_SECOND'
  | 'API_INGEST_BURST_EVENTS'
  | 'API_READ_UNITS_PER_SECOND'
  | 'API_READ_BURST_UNITS'
  | 'API_PAGERDUTY_WEBHOOKS_PER_SECOND'
  | 'API_PAGERDUTY_WEBHOOK_BURST'
  | 'API_DASHBOARD_SESSIONS_PER_TENANT'
  | 'API_DASHBOARD_LOGIN_LINKS_PER_TENANT'
  | 'API_DASHBOARD_SIGN_INS_PER_MINUTE'
  | 'API_DASHBOARD_SIGN_IN_BURST'
  | 'API_REQUEST_TIMEOUT_MS'
>;

const QUOTA_KEYS = [
  'API_PREFLIGHT_PER_SECOND',
  'API_PREFLIGHT_BURST',
  'API_INGEST_EVENTS_PER_SECOND',
  'API_INGEST_BURST_EVENTS',
  'API_READ_UNITS_PER_SECOND',
  'API_READ_BURST_UNITS',
  'API_PAGERDUTY_WEBHOOKS_PER_SECOND',
  'API_PAGERDUTY_WEBHOOK_BURST',
  'API_DASHBOARD_SESSIONS_PER_TENANT',
  'API_DASHBOARD_LOGIN_LINKS_PER_TENANT',
  'API_DASHBOARD_SIGN_INS_PER_MINUTE',
  'API_DASHBOARD_SIGN_IN_BURST',
  'API_REQUEST_TIMEOUT_MS',
] as const satisfies readonly (keyof QuotaSettings)[];

/** The host's settings, each one it leaves out at its variable's default (the same default as from the environment). */
export function quotaSettingsOf(given: Partial<QuotaSettings>): QuotaSettings {
  const defaults = loadApiSettings({});
  return Object.fromEntries(QUOTA_KEYS.map((key) => [key, given[key] ?? defaults[key]])) as unknown as QuotaSettings;
}

/** What one request costs: a preflight is one, an ingest request one per event it carries. */
const ingestCost = (body: unknown): number => {
  const events = (body as { events?: unknown } | null)?.events;
  // Capped at the largest valid batch: a longer one is a 400 from validation, not a wait that can never end.
  return Array.isArray(events) ? Math.min(Math.max(events.length, 1), MAX_BATCH_EVENTS) : 1;
};

type QuotaName = 'ingest' | 'preflight' | 'read' | 'pagerduty_webhook';

/**
 * The per-tenant quotas (token buckets, in this process: with several API instances each enforces the quota
 * on its own share). Every /v1 route is metered: preflight per request, writes (ingest batches per event, a
 * resolution as the one event it is) against the ingest quota, reads by cost (read-cost.ts), the PagerDuty
 * webhook per signing secret's tenant. A refusal is a 429 with Retry-After (whole seconds, at least 1).
 */
export class TenantQuotas {
  private readonly preflight: TokenBuckets;
  private readonly ingest: TokenBuckets;
  private readonly read: TokenBuckets;
  private readonly webhook: TokenBuckets;

  constructor(
    settings: QuotaSettings,
    private readonly clock: Clock,
    private readonly metrics: ApiMetrics,
  ) {
    this.preflight = new TokenBuckets({
      perSecond: settings.API_PREFLIGHT_PER_SECOND,
      burst: settings.API_PREFLIGHT_BURST,
    });
    this.ingest = new TokenBuckets({
      perSecond: settings.API_INGEST_EVENTS_PER_SECOND,
      burst: settings.API_INGEST_BURST_EVENTS,
    });
    this.read = new TokenBuckets({
      perSecond: settings.API_READ_UNITS_PER_SECOND,
      burst: settings.API_READ_BURST_UNITS,
    });
    this.webhook = new TokenBuckets({
      perSecond: settings.API_PAGERDUTY_WEBHOOKS_PER_SECOND,
      burst: settings.API_PAGERDUTY_WEBHOOK_BURST,
    });
  }

  /**
   * The quota hook of a tenant route, run as a preHandler: after the API-key hook (the tenant is known) and
   * after the body is parsed (ingest is charged per event), before the handler validates, reads or publishes.
   * Every GET is a read; undefined only for routes that meter themselves (sign-in links, the signed webhook).
   */
  hookFor(method: string, url: string): preHandlerHookHandler | undefined {
    if (method === 'POST' && url === '/v1/preflight')
      return this.hook('preflight', 'requests', this.preflight, () => 1);
    if (method === 'POST' && url === '/v1/events') return this.hook('ingest', 'events', this.ingest, ingestCost);
    // A resolution is one agent event stored for good, like an ingested one: the same write quota.
    if (method === 'POST' && url === '/v1/resolutions') return this.hook('ingest', 'events', this.ingest, () => 1);
    if (method === 'GET' || method === 'HEAD') {
      return this.hook('read', 'read units', this.read, (_body, query) => readCost(url, query));
    }
    return undefined;
  }

  /** Charges a read's cost learnt after it ran (an anchor check's events) to the tenant's read quota, into debt. */
  chargeRead(tenant: string, units: number): void {
    if (units > 0) this.read.charge(tenant, units, this.clock().getTime());
  }

  /** The ingest quota for events known only once the body is decoded (OTLP spans); the refusal to throw, or null. */
  takeIngest(tenant: string, events: number): TooManyRequestsError | null {
    return this.refusal('ingest', 'events', this.ingest, tenant, events);
  }

  /** The webhook's quota, taken once the signature named the tenant; the refusal to throw, or null. */
  takeWebhook(tenant: string): TooManyRequestsError | null {
    return this.refusal('pagerduty_webhook', 'deliveries', this.webhook, tenant, 1);
  }

  private hook(
    name: QuotaName,
    unit: string,
    buckets: TokenBuckets,
    cost: (body: unknown, query: unknown) => number,
  ): preHandlerHookHandler {
    const quotas = this;
    return function enforceQuota(request, _reply, done) {
      const refused = quotas.refusal(name, unit, buckets, requestTenant(request), cost(request.body, request.query));
      if (refused === null) done();
      else done(refused);
    };
  }

  private refusal(
    name: QuotaName,
    unit: string,
    buckets: TokenBuckets,
    tenant: string,
    cost: number,
  ): TooManyRequestsError | null {
    const take = buckets.take(tenant, cost, this.clock().getTime());
    if (take.allowed) return null;
    this.metrics.quotaRefusals.inc({ quota: name, tenant });
    const seconds = Math.max(1, Math.ceil(take.retryAfterMs / 1000));
    const { perSecond, burst } = buckets.quota;
    return new TooManyRequestsError(
      name,
      seconds,
      `the tenant's ${name.replace('_', ' ')} quota (${perSecond} ${unit}/s, bursts of ${burst}) is spent: retry after ${seconds} s`,
    );
  }
}
