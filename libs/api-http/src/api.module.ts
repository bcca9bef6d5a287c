import {
  Inject,
  Injectable,
  Module,
  type DynamicModule,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import type { Logger } from 'pino';
import { Registry } from 'prom-client';
import { policyVersion, type TokenCircuitConfig } from '@tokencircuit/governance';
import { PagerDutySecretRing } from '@tokencircuit/integrations';
import { HealthController, METRICS_REGISTRY, READINESS_PROBE } from '@tokencircuit/service-kit';
import type { ApiConfig } from './api-config.js';
import { quotaSettingsOf, TenantQuotas, type QuotaSettings } from './quota/tenant-quotas.js';
import type { ApiDatabase } from './api-database.port.js';
import { ApiMetrics } from './api-metrics.js';
import { AuditController } from './audit/audit.controller.js';
import { systemClock, type Clock } from './clock.js';
import { DashboardController } from './dashboard/dashboard.controller.js';
import { EventStreams } from './dashboard/event-streams.js';
import { DashboardHub } from './dashboard/dashboard-hub.js';
import { DashboardSessions, DEFAULT_SESSION_SETTINGS } from './dashboard/dashboard-sessions.js';
import type { LiveFeed } from './dashboard/live-feed.port.js';
import { LoginController } from './dashboard/login.controller.js';
import { ApiExceptionFilter } from './http/api-exception.filter.js';
import { PagerDutyWebhookController } from './integrations/pagerduty-webhook.controller.js';
import type { AgentEventPublisher } from './ingest/agent-event-publisher.port.js';
import { EventsController } from './ingest/events.controller.js';
import { TracesController } from './otlp/traces.controller.js';
import { OTLP_MAX_BODY_BYTES } from './otlp/otlp-settings.js';
import { PreflightController } from './preflight/preflight.controller.js';
import { PreflightChangesController } from './preflight/preflight-changes.controller.js';
import { ResolutionsController } from './resolutions/resolutions.controller.js';
import { StateController } from './state/state.controller.js';
import { SpendController } from './spend/spend.controller.js';
import type { BudgetPublisher } from './spend/budget-publisher.port.js';
import { SpendLedger } from './spend/spend-ledger.js';
import { spendMetricsOn } from './spend/spend-metrics.js';
import {
  AGENT_EVENT_PUBLISHER,
  API_DATABASE,
  BUDGET_PUBLISHER,
  API_KEY_RING,
  CLOCK,
  DASHBOARD_HUB,
  DASHBOARD_SESSIONS,
  GOVERNANCE_POLICY,
  LIVE_FEED,
  LOGGER,
  PAGERDUTY_WEBHOOK_SECRETS,
  SPEND_LEDGER,
  TENANT_QUOTAS,
} from './tokens.js';

/** What the API module is built from: validated settings, the policy, and its two ports. */
export interface ApiModuleOptions {
  /** The quotas default to their variables' defaults (api-config.ts) when a host leaves them out. */
  readonly config: Pick<ApiConfig, 'apiKeys' | 'API_MAX_BODY_BYTES'> &
    Partial<QuotaSettings> &
    Partial<Pick<ApiConfig, 'API_METRICS_TENANT_LABELS' | 'API_SPEND_LEASES' | 'API_SPEND_LEASE_FLUSH_MS'>> & {
      /** Which tenant each PagerDuty webhook secret speaks for; none: POST /v1/integrations/pagerduty answers 404. */
      readonly pagerDutyWebhooks?: PagerDutySecretRing;
    };
  readonly policy: TokenCircuitConfig;
  readonly log: Logger;
  /** Kafka in production, the in-process bus when embedded. The module closes it on shutdown. */
  readonly publisher: AgentEventPublisher & { close?(): Promise<void> };
  /** node-postgres in production, PGlite when embedded. The module closes it on shutdown. */
  readonly db: ApiDatabase;
  readonly clock?: Clock;
  /** Other registries served at /metrics too: the embedded mode's projector and decision service. */
  readonly metrics?: readonly Registry[];
  /**
   * The interventions and episode topics for the dashboard's live view (Kafka when connected, the bus when
   * embedded). Without one the page still works and refreshes on its own actions. The module closes it.
   */
  readonly liveFeed?: LiveFeed;
  /** Announces budget interventions and their episode steps (Kafka when connected); without one they are only stored. */
  readonly budgetPublisher?: BudgetPublisher;
}

// Their routes live under /v1/, where the API-key and body hooks apply (http/http-hooks.ts).
const TENANT_ROUTES = [
  EventsController,
  TracesController,
  PreflightController,
  PreflightChangesController,
  AuditController,
  StateController,
  ResolutionsController,
  DashboardController,
  SpendController,
  // Under /v1/ too, but authenticated by its signature instead of an API key (@SignedWebhook).
  PagerDutyWebhookController,
];

@Injectable()
class ApiLifecycle implements OnApplicationBootstrap, OnApplicationShutdown {
  constructor(
    @Inject(AGENT_EVENT_PUBLISHER) private readonly publisher: ApiModuleOptions['publisher'],
    @Inject(API_DATABASE) private readonly db: ApiDatabase,
    @Inject(LIVE_FEED) private readonly liveFeed: LiveFeed | null,
    @Inject(DASHBOARD_HUB) private readonly hub: DashboardHub,
    @Inject(SPEND_LEDGER) private readonly spend: SpendLedger | null,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.liveFeed?.start((signal) => this.hub.publish(signal));
  }

  async onApplicationShutdown(): Promise<void> {
    await this.liveFeed?.close();
    await this.publisher.close?.();
    // Before the pool closes: what leases served is written and their unused room returned.
    await this.spend?.close();
    await this.db.close();
  }
}

/**
 * The HTTP API: ingest, preflight, resolutions and audit. Ports are swapped by forRoot's options.
 * Authentication, body parsing and request counting are Fastify hooks installed by createApiApp.
 */
@Module({})
export class ApiModule {
  static forRoot(options: ApiModuleOptions): DynamicModule {
    const capacity = quotaSettingsOf(options.config);
    return {
      module: ApiModule,
      controllers: [HealthController, LoginController, ...TENANT_ROUTES],
      providers: [
        EventStreams,
        { provide: GOVERNANCE_POLICY, useValue: options.policy },
        { provide: LOGGER, useValue: options.log },
        { provide: AGENT_EVENT_PUBLISHER, useValue: options.publisher },
        { provide: BUDGET_PUBLISHER, useValue: options.budgetPublisher ?? null },
        { provide: API_DATABASE, useValue: options.db },
        { provide: OTLP_MAX_BODY_BYTES, useValue: options.config.API_MAX_BODY_BYTES },
        { provide: CLOCK, useValue: options.clock ?? systemClock },
        { provide: API_KEY_RING, useValue: options.config.apiKeys },
        {
          provide: PAGERDUTY_WEBHOOK_SECRETS,
          useValue: options.config.pagerDutyWebhooks ?? PagerDutySecretRing.of([]),
        },
        {
          provide: DASHBOARD_SESSIONS,
          inject: [CLOCK],
          useFactory: (clock: Clock) =>
            new DashboardSessions(clock, {
              ...DEFAULT_SESSION_SETTINGS,
              sessionsPerTenant: capacity.API_DASHBOARD_SESSIONS_PER_TENANT,
              loginTokensPerTenant: capacity.API_DASHBOARD_LOGIN_LINKS_PER_TENANT,
              signInsPerMinute: capacity.API_DASHBOARD_SIGN_INS_PER_MINUTE,
              signInBurst: capacity.API_DASHBOARD_SIGN_IN_BURST,
            }),
        },
        {
          provide: TENANT_QUOTAS,
          inject: [CLOCK, ApiMetrics],
          useFactory: (clock: Clock, metrics: ApiMetrics) => new TenantQuotas(capacity, clock, metrics),
        },
        {
          // One ledger per process: preflight serves from its leases, and a settle must see what it served.
          provide: SPEND_LEDGER,
          inject: [CLOCK, ApiMetrics],
          useFactory: (clock: Clock, metrics: ApiMetrics) =>
            options.policy.spend
              ? new SpendLedger(
                  options.db,
                  options.policy.spend,
                  spendMetricsOn(metrics.registry),
                  policyVersion(options.policy),
                  options.budgetPublisher ?? null,
                  {
                    leases: options.config.API_SPEND_LEASES ?? false,
                    leaseFlushMs: options.config.API_SPEND_LEASE_FLUSH_MS,
                    clock,
                  },
                )
              : null,
        },
        { provide: DASHBOARD_HUB, useValue: new DashboardHub() },
        { provide: LIVE_FEED, useValue: options.liveFeed ?? null },
        {
          provide: ApiMetrics,
          useFactory: () => new ApiMetrics({ tenantLabels: options.config.API_METRICS_TENANT_LABELS ?? false }),
        },
        {
          provide: METRICS_REGISTRY,
          inject: [ApiMetrics],
          useFactory: (metrics: ApiMetrics) =>
            options.metrics?.length ? Registry.merge([metrics.registry, ...options.metrics]) : metrics.registry,
        },
        {
          provide: READINESS_PROBE,
          useFactory: () => async () => {
            const database = await options.db.ping();
            return { ready: database, database };
          },
        },
        { provide: APP_FILTER, useFactory: () => new ApiExceptionFilter(options.log) },
        ApiLifecycle,
      ],
    };
  }
}
