import { Controller, Headers, HttpCode, Inject, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ContractError, type AgentEvent } from '@tokencircuit/contracts';
import { encodeProtobufTraceResponse, mapSpans, type MappedCall } from '@tokencircuit/otlp';
import { ApiMetrics } from '../api-metrics.js';
import type { ApiDatabase } from '../api-database.port.js';
import { AuthenticatedTenant } from '../auth/request-tenant.js';
import { InvalidRequestError } from '../http/api-errors.js';
import type { AgentEventPublisher } from '../ingest/agent-event-publisher.port.js';
import { acceptedAgentEvent } from '../ingest/accepted-agent-event.js';
import { knownEventConflicts } from '../ingest/known-event-conflicts.js';
import type { TenantQuotas } from '../quota/tenant-quotas.js';
import { AGENT_EVENT_PUBLISHER, API_DATABASE, TENANT_QUOTAS } from '../tokens.js';
import { otlpEncodingOf, otlpSpansOf, PROTOBUF_MEDIA_TYPE } from './otlp-body.js';
import { OtlpRoute } from './otlp-route.js';
import { OTLP_MAX_BODY_BYTES } from './otlp-settings.js';

interface Accepted {
  readonly call: MappedCall;
  readonly events: readonly [AgentEvent, AgentEvent];
}

/**
 * OTLP/HTTP trace receiver: an OpenTelemetry Collector's `otlphttp` exporter or an SDK's OTLP exporter
 * points here, and every tool-call span becomes tool_call.requested + tool_call.outcome of the API key's
 * tenant, published like POST /v1/events (docs/opentelemetry.md). Other spans are counted and dropped.
 */
@Controller('v1')
export class TracesController {
  constructor(
    @Inject(AGENT_EVENT_PUBLISHER) private readonly publisher: AgentEventPublisher,
    @Inject(ApiMetrics) private readonly metrics: ApiMetrics,
    @Inject(API_DATABASE) private readonly db: ApiDatabase,
    @Inject(TENANT_QUOTAS) private readonly quotas: TenantQuotas,
    @Inject(OTLP_MAX_BODY_BYTES) private readonly maxBodyBytes: number,
  ) {}

  /**
   * 200 once the broker has every accepted event (OTLP's success), with a partial success naming the
   * tool-call spans refused (an event the contract refuses, or a span id already stored with another body).
   */
  @Post('traces')
  @OtlpRoute()
  @HttpCode(200)
  async export(
    @AuthenticatedTenant() tenant: string,
    @Req() request: FastifyRequest,
    @Headers('content-encoding') contentEncoding: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Buffer | Record<string, unknown>> {
    const encoding = otlpEncodingOf(request.headers['content-type'])!;
    if (!Buffer.isBuffer(request.body)) {
      throw new InvalidRequestError('invalid_otlp', '(body)', 'an OTLP export request needs a body');
    }
    const spans = await otlpSpansOf(request.body, encoding, contentEncoding, this.maxBodyBytes);
    const mapped = mapSpans(spans, tenant);
    const refused: string[] = [];
    const accepted: Accepted[] = [];
    for (const call of mapped.calls) {
      try {
        accepted.push({ call, events: [acceptedAgentEvent(call.events[0]), acceptedAgentEvent(call.events[1])] });
      } catch (error) {
        if (!(error instanceof ContractError)) throw error;
        refused.push(`span ${call.spanId}: ${error.message}`);
      }
    }
    // A span id already stored with another body: the stored events stand, the span is refused.
    const conflicts = await knownEventConflicts(
      this.db,
      tenant,
      accepted.flatMap((a) => a.events),
    );
    const conflicting = new Set(conflicts.map((c) => Math.floor(c.index / 2)));
    for (const index of conflicting) {
      refused.push(`span ${accepted[index]!.call.spanId}: already received with other attributes; the first stands`);
    }
    const publishing = accepted.filter((_, index) => !conflicting.has(index));
    const events = publishing.flatMap((a) => a.events);
    if (events.length > 0) {
      const refusal = this.quotas.takeIngest(tenant, events.length);
      if (refusal) throw refusal;
      await this.publisher.publish(events, new Map(events.map((e, i) => [e.id, publishing[i >> 1]!.call.traceparent])));
    }
    for (const a of publishing) this.metrics.otlpSpans.inc({ outcome: 'mapped', convention: a.call.convention });
    for (const [reason, count] of Object.entries(mapped.ignored)) {
      if (count > 0) this.metrics.otlpSpans.inc({ outcome: 'ignored', convention: reason }, count);
    }
    if (refused.length > 0) this.metrics.otlpSpans.inc({ outcome: 'refused', convention: 'any' }, refused.length);

    const partial =
      refused.length === 0 ? null : { rejectedSpans: refused.length, errorMessage: refused.slice(0, 5).join('; ') };
    if (encoding === 'protobuf') {
      void reply.header('content-type', PROTOBUF_MEDIA_TYPE);
      return Buffer.from(encodeProtobufTraceResponse(partial));
    }
    return partial === null
      ? {}
      : { partialSuccess: { rejectedSpans: String(partial.rejectedSpans), errorMessage: partial.errorMessage } };
  }
}
