import { randomUUID } from 'node:crypto';
import { Body, Controller, HttpCode, Inject, Post } from '@nestjs/common';
import { applicableResolutions, resolutionApplies, situationOfKey } from '@tokencircuit/governance';
import type { ApiDatabase } from '../api-database.port.js';
import { ApiMetrics } from '../api-metrics.js';
import { auditStore } from '../audit/audit-store.js';
import { AuthenticatedTenant } from '../auth/request-tenant.js';
import type { Clock } from '../clock.js';
import { InvalidRequestError, NotFoundError } from '../http/api-errors.js';
import { validated } from '../http/validated.js';
import type { AgentEventPublisher } from '../ingest/agent-event-publisher.port.js';
import { acceptedAgentEvent } from '../ingest/accepted-agent-event.js';
import { ResolutionRequestSchema } from './resolution-request.js';
import { AGENT_EVENT_PUBLISHER, API_DATABASE, CLOCK, DASHBOARD_HUB } from '../tokens.js';
import type { DashboardHub } from '../dashboard/dashboard-hub.js';

/** An operator's resolution becomes an operator.resolution agent event on the agent-events topic. */
@Controller('v1/resolutions')
export class ResolutionsController {
  constructor(
    @Inject(AGENT_EVENT_PUBLISHER) private readonly publisher: AgentEventPublisher,
    @Inject(API_DATABASE) private readonly db: ApiDatabase,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(ApiMetrics) private readonly metrics: ApiMetrics,
    @Inject(DASHBOARD_HUB) private readonly hub: DashboardHub,
  ) {}

  /** 202 once the broker acknowledged the event; the projector applies it to the state in order. */
  @Post()
  @HttpCode(202)
  async resolve(
    @AuthenticatedTenant() tenant: string,
    @Body() body: unknown,
  ): Promise<{ accepted: string[]; id: string }> {
    const data = validated(ResolutionRequestSchema, body);
    // keyId arrives with the identifier text rule applied (identifier-text.ts), as the key ids it was built from.
    // Only a key the tenant can see may be resolved (read under its row-level security): a key id names
    // its tenant, and a resolution must never reach another tenant's state.
    const state = await this.db.tenants.read(tenant, (session) => auditStore.state(session, data.keyId));
    if (!state) throw new NotFoundError(`no failure state ${data.keyId}`);
    // A kind that means nothing for the key's situation would be recorded and change nothing (RESOLUTION_MEANINGS):
    // refuse it here, naming what applies. A resolved key has nothing left to resolve; repeating is harmless.
    const key = state.state;
    if (key.status !== 'resolved' && !resolutionApplies(key, data.resolution)) {
      throw new InvalidRequestError(
        'not_applicable',
        'resolution',
        `resolution: ${data.resolution} does not apply to this ${situationOfKey(key).replace(/_/g, ' ')} key ` +
          `(status ${key.status}); it takes ${applicableResolutions(key).join(', ')}`,
      );
    }
    const event = acceptedAgentEvent({
      type: 'operator.resolution',
      id: randomUUID(),
      tenant,
      time: this.clock().toISOString(),
      data,
    });
    await this.publisher.publish([event]);
    this.metrics.ingestedEvents.inc({ type: event.type });
    // Open dashboards of this tenant on this API instance re-read the key now; every instance hears it again
    // from the episodes topic once the decision service records the acknowledged or resolved step.
    this.hub.publish({ tenant, type: event.type, id: event.id, keyId: data.keyId, run: state.state.lastCall.run });
    return { accepted: [event.id], id: event.id };
  }
}
