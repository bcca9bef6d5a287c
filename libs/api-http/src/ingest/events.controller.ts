import { Body, Controller, HttpCode, Inject, Post } from '@nestjs/common';
import { ApiMetrics } from '../api-metrics.js';
import { AuthenticatedTenant } from '../auth/request-tenant.js';
import { AGENT_EVENT_PUBLISHER } from '../tokens.js';
import type { AgentEventPublisher } from './agent-event-publisher.port.js';
import { parseIngestBody } from './ingest-request.js';

/** HTTP ingest for agents that cannot speak Kafka: same events, same topic, same guarantees. */
@Controller('v1/events')
export class EventsController {
  constructor(
    @Inject(AGENT_EVENT_PUBLISHER) private readonly publisher: AgentEventPublisher,
    @Inject(ApiMetrics) private readonly metrics: ApiMetrics,
  ) {}

  /** 202 only after the broker acknowledged every event: an accepted event is never lost. */
  @Post()
  @HttpCode(202)
  async ingest(@AuthenticatedTenant() tenant: string, @Body() body: unknown): Promise<{ accepted: string[] }> {
    const events = parseIngestBody(body, tenant);
    await this.publisher.publish(events);
    for (const event of events) this.metrics.ingestedEvents.inc({ type: event.type });
    return { accepted: events.map((event) => event.id) };
  }
}
