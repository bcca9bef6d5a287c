import { Body, Controller, Headers, Inject, Post, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import {
  PAGERDUTY_SIGNATURE_HEADER,
  PagerDutyWebhookDeliverySchema,
  incidentActionOf,
  resolutionFor,
  type PagerDutySecretRing,
} from '@tokencircuit/integrations';
import type { ApiDatabase } from '../api-database.port.js';
import { ApiMetrics } from '../api-metrics.js';
import type { Clock } from '../clock.js';
import type { DashboardHub } from '../dashboard/dashboard-hub.js';
import { NotFoundError, UnauthenticatedError } from '../http/api-errors.js';
import { jsonBodyOf } from '../http/json-body.js';
import { SignedWebhook } from '../http/signed-webhook.js';
import { validated } from '../http/validated.js';
import type { AgentEventPublisher } from '../ingest/agent-event-publisher.port.js';
import { acceptedAgentEvent } from '../ingest/accepted-agent-event.js';
import {
  AGENT_EVENT_PUBLISHER,
  API_DATABASE,
  CLOCK,
  DASHBOARD_HUB,
  PAGERDUTY_WEBHOOK_SECRETS,
  TENANT_QUOTAS,
} from '../tokens.js';
import type { TenantQuotas } from '../quota/tenant-quotas.js';
import { episodeRecord } from './episode-record.js';
import type { PagerDutyWebhookAnswer } from '../openapi/api-schemas.js';

/**
 * PagerDuty webhook v3 deliveries: an incident acknowledged or resolved in PagerDuty becomes an operator
 * resolution of the episode's key, exactly as `POST /v1/resolutions` makes one. The tenant is the one whose
 * webhook secret signed the raw body (TOKENCIRCUIT_PAGERDUTY_WEBHOOK_SECRETS); no API key is involved.
 */
@Controller('v1/integrations')
export class PagerDutyWebhookController {
  constructor(
    @Inject(AGENT_EVENT_PUBLISHER) private readonly publisher: AgentEventPublisher,
    @Inject(API_DATABASE) private readonly db: ApiDatabase,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(ApiMetrics) private readonly metrics: ApiMetrics,
    @Inject(DASHBOARD_HUB) private readonly hub: DashboardHub,
    @Inject(PAGERDUTY_WEBHOOK_SECRETS) private readonly secrets: PagerDutySecretRing,
    @Inject(TENANT_QUOTAS) private readonly quotas: TenantQuotas,
  ) {}

  /** 202 with the resolution's id once the broker has it; 200 for a delivery with nothing to do (PagerDuty needs a 2xx). */
  @Post('pagerduty')
  @SignedWebhook()
  async deliver(
    @Headers(PAGERDUTY_SIGNATURE_HEADER) signature: string | undefined,
    @Body() body: unknown,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<PagerDutyWebhookAnswer> {
    if (!this.secrets.configured) {
      throw new NotFoundError(
        'PagerDuty webhooks are not enabled on this API (TOKENCIRCUIT_PAGERDUTY_WEBHOOK_SECRETS)',
      );
    }
    // The signature covers the exact bytes received; they are parsed only once it holds.
    const raw = Buffer.isBuffer(body) ? body : Buffer.alloc(0);
    const tenant = this.secrets.tenantOf(raw, signature);
    if (tenant === null) {
      this.metrics.pagerDutyWebhooks.inc({ outcome: 'unauthenticated' });
      throw new UnauthenticatedError(
        `no configured webhook secret signed this body (${PAGERDUTY_SIGNATURE_HEADER}: v1=<hex HMAC-SHA256 of the raw body>)`,
      );
    }
    // Metered once the signature names who sent it (its secret's tenant), before any parse, read or publish:
    // a leaked or replayed secret cannot flood the agent-events topic (issue 28).
    const refused = this.quotas.takeWebhook(tenant);
    if (refused !== null) {
      this.metrics.pagerDutyWebhooks.inc({ outcome: 'rate_limited' });
      throw refused;
    }
    const delivery = validated(PagerDutyWebhookDeliverySchema, jsonBodyOf(raw.toString('utf8')));
    const action = incidentActionOf(delivery);
    if (action.kind === 'ignored') return this.ignored(reply, action.reason);
    const record = await this.db.tenants.read(tenant, (session) => episodeRecord(session, action.episodeId));
    const decision = resolutionFor(tenant, action, record);
    if (decision.kind === 'ignored') return this.ignored(reply, decision.reason);

    const event = acceptedAgentEvent({
      type: 'operator.resolution',
      id: decision.id,
      tenant,
      time: this.clock().toISOString(),
      data: decision.data,
    });
    await this.publisher.publish([event]);
    this.metrics.ingestedEvents.inc({ type: event.type });
    this.metrics.pagerDutyWebhooks.inc({ outcome: 'resolution' });
    this.hub.publish({ tenant, type: event.type, id: event.id, keyId: decision.data.keyId, run: null });
    reply.code(202);
    return {
      outcome: 'resolution',
      id: event.id,
      accepted: [event.id],
      keyId: decision.data.keyId,
      episodeId: action.episodeId,
      resolution: decision.data.resolution,
    };
  }

  private ignored(reply: FastifyReply, reason: string): PagerDutyWebhookAnswer {
    this.metrics.pagerDutyWebhooks.inc({ outcome: 'ignored' });
    reply.code(200);
    return { outcome: 'ignored', reason };
  }
}
