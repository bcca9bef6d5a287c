import { Body, Controller, HttpCode, Inject, Post } from '@nestjs/common';
import { ApiMetrics } from '../api-metrics.js';
import { AuthenticatedTenant } from '../auth/request-tenant.js';
import type { ApiDatabase } from '../api-database.port.js';
import { ConflictError } from '../http/api-errors.js';
import type { Clock } from '../clock.js';
import type { SpendLedger } from '../spend/spend-ledger.js';
import { AGENT_EVENT_PUBLISHER, API_DATABASE, CLOCK, SPEND_LEDGER } from '../tokens.js';
import type { AgentEventPublisher } from './agent-event-publisher.port.js';
import { parseIngestBody } from './ingest-request.js';
import { knownEventConflicts } from './known-event-conflicts.js';

/** HTTP ingest for agents that cannot speak Kafka: same events, same topic, same guarantees. */
@Controller('v1/events')
export class EventsController {
  constructor(
    @Inject(AGENT_EVENT_PUBLISHER) private readonly publisher: AgentEventPublisher,
    @Inject(ApiMetrics) private readonly metrics: ApiMetrics,
    @Inject(API_DATABASE) private readonly db: ApiDatabase,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(SPEND_LEDGER) private readonly spend: SpendLedger | null,
  ) {}

  /**
   * 202 only after the broker acknowledged every event: an accepted event is never lost. 409 when an
   * event reuses a stored event's id within its source with another body.
   */
  @Post()
  @HttpCode(202)
  async ingest(@AuthenticatedTenant() tenant: string, @Body() body: unknown): Promise<{ accepted: string[] }> {
    const events = parseIngestBody(body, tenant);
    // A known id of the same source with another body is the caller's to learn of, not to lose: nothing of
    // the batch is published (one read; the same body again is a retry, accepted and dropped downstream).
    const [conflict] = await knownEventConflicts(this.db, tenant, events);
    if (conflict) {
      const at = Array.isArray((body as { events?: unknown }).events) ? conflict.index : null;
      throw new ConflictError(
        `${at === null ? '' : `events[${at}]: `}id: event "${conflict.id}" of source "${conflict.source}" is ` +
          `already stored with another body (${conflict.storedDigest}); an event id is unique within its source`,
        at,
        conflict.storedDigest,
      );
    }
    // Outcomes settle their calls' reservations before the batch is published: a client that retries a
    // failed publish settles nothing twice (settling is idempotent per call), and no usage is lost.
    if (this.spend !== null) {
      for (const event of events) if (event.type === 'tool_call.outcome') await this.spend.settle(event, this.clock());
    }
    await this.publisher.publish(events);
    for (const event of events) this.metrics.ingestedEvents.inc({ type: event.type });
    return { accepted: events.map((event) => event.id) };
  }
}
