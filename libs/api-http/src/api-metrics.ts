import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { spendMetricsOn } from './spend/spend-metrics.js';

/** Prometheus metrics of one API process (own registry: the embedded mode runs several apps in one process). */
export class ApiMetrics {
  readonly registry = new Registry();
  readonly requests = new Counter({
    name: 'tokencircuit_api_requests_total',
    help: 'HTTP requests answered, by route pattern, method and status code.',
    labelNames: ['route', 'method', 'status'] as const,
    registers: [this.registry],
  });
  readonly preflightLatency = new Histogram({
    name: 'tokencircuit_api_preflight_duration_seconds',
    help: 'Time to answer one preflight: state read plus the core decision (excludes HTTP parsing).',
    // The goal is p99 < 5 ms: resolution below it matters, above it only the order of magnitude.
    buckets: [0.0005, 0.001, 0.002, 0.003, 0.005, 0.0075, 0.01, 0.025, 0.05, 0.1, 0.5],
    registers: [this.registry],
  });
  readonly preflightAnswers = new Counter({
    name: 'tokencircuit_api_preflight_total',
    help: 'Preflight answers, by verdict.',
    labelNames: ['allow'] as const,
    registers: [this.registry],
  });
  readonly ingestedEvents = new Counter({
    name: 'tokencircuit_api_ingested_events_total',
    help: 'Agent events accepted over HTTP (acknowledged by the broker), by event type.',
    labelNames: ['type'] as const,
    registers: [this.registry],
  });
  /** The spend ledger's verdicts, settlements and expiries (docs/budgets.md). */
  readonly spend = spendMetricsOn(this.registry);
  readonly otlpSpans = new Counter({
    name: 'tokencircuit_api_otlp_spans_total',
    help: 'Spans received on POST /v1/traces, by outcome (mapped to a tool call, ignored, refused) and convention or reason.',
    labelNames: ['outcome', 'convention'] as const,
    registers: [this.registry],
  });

  readonly pagerDutyWebhooks = new Counter({
    name: 'tokencircuit_api_pagerduty_webhooks_total',
    help: 'PagerDuty webhook deliveries, by outcome (resolution, ignored, rate_limited, unauthenticated: no configured secret signed it).',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });
  /**
   * Requests refused with 429, by quota and, when API_METRICS_TENANT_LABELS is set, by tenant: /metrics
   * answers without authentication, and a tenant label names every tenant that was ever refused.
   */
  readonly quotaRefusals: { inc(labels: { readonly quota: string; readonly tenant: string }): void };

  constructor(options: { readonly tenantLabels?: boolean } = {}) {
    collectDefaultMetrics({ register: this.registry, prefix: 'tokencircuit_api_' });
    const tenantLabels = options.tenantLabels ?? false;
    const refusals = new Counter({
      name: 'tokencircuit_api_quota_refusals_total',
      help: `Requests refused with 429 because the tenant spent its quota, by quota${tenantLabels ? ' and tenant' : ''}.`,
      labelNames: tenantLabels ? (['quota', 'tenant'] as const) : (['quota'] as const),
      registers: [this.registry],
    });
    this.quotaRefusals = {
      inc: ({ quota, tenant }) => refusals.inc(tenantLabels ? { quota, tenant } : { quota }),
    };
  }
}
