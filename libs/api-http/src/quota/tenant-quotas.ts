import type { preHandlerHookHandler } from 'fastify';
import type { ApiMetrics } from '../api-metrics.js';
import { loadApiSettings, type ApiSettings } from '../api-config.js';
import { requestTenant } from '../auth/request-tenant.js';
import type { Clock } from '../clock.js';
import { TooManyRequestsError } from '../http/api-errors.js';
import { MAX_BATCH_EVENTS } from '../ingest/ingest-request.js';
import { TokenBuckets } from './token-bucket.js';

export type QuotaSettings = Pick<
  ApiSettings,
  'API_PREFLIGHT_PER_SECOND' | 'API_PREFLIGHT_BURST' | 'API_INGEST_EVENTS_PER_SECOND' | 'API_INGEST_BURST_EVENTS'
>;

/** The host's quotas, each one it leaves out at its variable's default (the same default as from the environment). */
export function quotaSettingsOf(given: Partial<QuotaSettings>): QuotaSettings {
  const defaults = loadApiSettings({});
  return {
    API_PREFLIGHT_PER_SECOND: given.API_PREFLIGHT_PER_SECOND ?? defaults.API_PREFLIGHT_PER_SECOND,
    API_PREFLIGHT_BURST: given.API_PREFLIGHT_BURST ?? defaults.API_PREFLIGHT_BURST,
    API_INGEST_EVENTS_PER_SECOND: given.API_INGEST_EVENTS_PER_SECOND ?? defaults.API_INGEST_EVENTS_PER_SECOND,
    API_INGEST_BURST_EVENTS: given.API_INGEST_BURST_EVENTS ?? defaults.API_INGEST_BURST_EVENTS,
  };
}

/** What one request costs: a preflight is one, an ingest request one per event it carries. */
const ingestCost = (body: unknown): number => {
  const events = (body as { events?: unknown } | null)?.events;
  // Capped at the largest valid batch: a longer one is a 400 from validation, not a wait that can never end.
  return Array.isArray(events) ? Math.min(Math.max(events.length, 1), MAX_BATCH_EVENTS) : 1;
};

/**
 * The per-tenant quotas as Fastify preHandler hooks, keyed by "METHOD /route": they run after the API-key
 * hook (the tenant is known) and after the body is parsed (ingest is charged per event), before the handler
 * validates, reads or publishes anything. A refusal is a 429 with Retry-After (whole seconds, at least 1).
 * Buckets live in this process: with several API instances each enforces the quota on its own share.
 */
export function tenantQuotaHooks(
  settings: QuotaSettings,
  clock: Clock,
  metrics: ApiMetrics,
): ReadonlyMap<string, preHandlerHookHandler> {
  const hook = (
    name: 'ingest' | 'preflight',
    unit: string,
    buckets: TokenBuckets,
    cost: (body: unknown) => number,
  ): preHandlerHookHandler =>
    function enforceQuota(request, _reply, done) {
      const tenant = requestTenant(request);
      const take = buckets.take(tenant, cost(request.body), clock().getTime());
      if (take.allowed) {
        done();
        return;
      }
      metrics.quotaRefusals.inc({ quota: name, tenant });
      const seconds = Math.max(1, Math.ceil(take.retryAfterMs / 1000));
      const { perSecond, burst } = buckets.quota;
      done(
        new TooManyRequestsError(
          name,
          seconds,
          `the tenant's ${name} quota (${perSecond} ${unit}/s, bursts of ${burst}) is spent: retry after ${seconds} s`,
        ),
      );
    };
  return new Map([
    [
      'POST /v1/preflight',
      hook(
        'preflight',
        'requests',
        new TokenBuckets({ perSecond: settings.API_PREFLIGHT_PER_SECOND, burst: settings.API_PREFLIGHT_BURST }),
        () => 1,
      ),
    ],
    [
      'POST /v1/events',
      hook(
        'ingest',
        'events',
        new TokenBuckets({
          perSecond: settings.API_INGEST_EVENTS_PER_SECOND,
          burst: settings.API_INGEST_BURST_EVENTS,
        }),
        ingestCost,
      ),
    ],
  ]);
}
