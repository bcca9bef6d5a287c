import { DECLARED_EFFECTS, LIMITS, type AgentEventInput, type DeclaredEffect } from '@tokencircuit/contracts';
import { text } from './attribute-lookup.js';
import { errorFacts } from './error-facts.js';
import type { OtlpSpan } from './otlp-span.js';
import { toolSpanOf, type IgnoredReason, type ToolConvention } from './tool-conventions.js';

/** One tool call read from one span: its two events and the trace context they ride with. */
export interface MappedCall {
  readonly convention: ToolConvention;
  readonly traceId: string;
  readonly spanId: string;
  /** W3C traceparent of the tool span: the services' own spans join the agent's trace through it. */
  readonly traceparent: string;
  /** tool_call.requested then tool_call.outcome, not validated yet (the receiver validates and redacts). */
  readonly events: readonly [AgentEventInput, AgentEventInput];
}

export interface MappedSpans {
  readonly calls: readonly MappedCall[];
  /** Spans that are not tool calls, by reason: counted, never an error. */
  readonly ignored: Readonly<Record<IgnoredReason, number>>;
}

/**
 * Spans → tool_call.requested + tool_call.outcome per tool-call span (docs/opentelemetry.md, one table per
 * convention). Event ids come from the span's ids, so the same span delivered again gives the same events,
 * which ingest accepts and the projector drops. Pure: the tenant comes from the caller's API key.
 */
export function mapSpans(spans: readonly OtlpSpan[], tenant: string): MappedSpans {
  const children = new Map<string, OtlpSpan[]>();
  for (const span of spans) {
    if (span.parentSpanId === null) continue;
    const key = `${span.traceId}/${span.parentSpanId}`;
    const list = children.get(key);
    if (list) list.push(span);
    else children.set(key, [span]);
  }
  const ignored: Record<IgnoredReason, number> = { not_a_tool_call: 0, mcp_server_side: 0, no_tool_name: 0 };
  const calls: MappedCall[] = [];
  for (const span of spans) {
    const tool = toolSpanOf(span);
    if (typeof tool === 'string') {
      ignored[tool] += 1;
      continue;
    }
    const effect = declaredEffect(text(span, 'tokencircuit.tool.effect'));
    const facts = errorFacts(span, descendantsOf(span, children), tool.convention === 'mcp', effect === 'read');
    const callId = tool.toolCallId ?? span.spanId;
    const explicitResource = text(span, 'tokencircuit.resource.id');
    const call = {
      agent: text(span, 'tokencircuit.agent', 'gen_ai.agent.name', 'gen_ai.agent.id', 'service.name') ?? 'otel',
      run: text(span, 'tokencircuit.run', 'gen_ai.conversation.id', 'session.id', 'mcp.session.id') ?? span.traceId,
      callId,
      attempt: 1,
      intentId: callId,
      tool: tool.tool,
      effect,
      resourceClass:
        text(span, 'tokencircuit.resource.class') ??
        (explicitResource === null && facts.urlPath !== null ? 'api_endpoint' : null),
      resourceId: explicitResource ?? facts.urlPath,
      principal: text(span, 'tokencircuit.principal', 'enduser.id', 'user.id'),
      authScope: text(span, 'tokencircuit.auth.scope', 'enduser.scope'),
      arguments: argumentsOf(tool.argumentsJson),
      idempotencyKey: text(span, 'tokencircuit.idempotency_key'),
      httpMethod: facts.httpMethod,
      sqlStatement: facts.sqlStatement,
    };
    const id = `otel-${span.traceId}-${span.spanId}`;
    const durationMs = span.endNanos >= span.startNanos ? Number(span.endNanos - span.startNanos) / 1e6 : null;
    calls.push({
      convention: tool.convention,
      traceId: span.traceId,
      spanId: span.spanId,
      traceparent: `00-${span.traceId}-${span.spanId}-01`,
      events: [
        { type: 'tool_call.requested', id: `${id}-requested`, tenant, time: isoOf(span.startNanos), data: { call } },
        {
          type: 'tool_call.outcome',
          id: `${id}-outcome`,
          tenant,
          time: isoOf(span.endNanos >= span.startNanos ? span.endNanos : span.startNanos),
          data: {
            call,
            status: facts.status,
            durationMs,
            error: facts.error,
            dispatch: facts.dispatch,
            provider: facts.provider,
            protocol: facts.protocol,
          },
        },
      ],
    });
  }
  return { calls, ignored };
}

/** The spans under a tool span in the same request (HTTP, RPC and database client spans of its call). */
function descendantsOf(span: OtlpSpan, children: ReadonlyMap<string, OtlpSpan[]>): OtlpSpan[] {
  const found: OtlpSpan[] = [];
  const queue = [span];
  const seen = new Set([span.spanId]);
  while (queue.length > 0 && found.length < 256) {
    const next = queue.shift()!;
    for (const child of children.get(`${next.traceId}/${next.spanId}`) ?? []) {
      if (seen.has(child.spanId)) continue; // a cycle of parent ids in hostile input
      seen.add(child.spanId);
      found.push(child);
      queue.push(child);
    }
  }
  return found;
}

function declaredEffect(value: string | null): DeclaredEffect {
  return (DECLARED_EFFECTS as readonly string[]).includes(value ?? '') ? (value as DeclaredEffect) : 'unknown';
}

/** A JSON object of arguments within the contract's size, else none: a span's arguments are opt-in and unbounded. */
function argumentsOf(json: string | null): Record<string, unknown> {
  if (json === null || Buffer.byteLength(json, 'utf8') > LIMITS.argumentsBytes) return {};
  try {
    const value: unknown = JSON.parse(json);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

// Nanoseconds since the epoch → RFC 3339 with milliseconds; outside what Date holds, the epoch (the
// contract then judges the time as it judges any other).
function isoOf(nanos: bigint): string {
  const ms = Number(nanos / 1_000_000n);
  const date = new Date(ms);
  return Number.isNaN(date.getTime()) ? new Date(0).toISOString() : date.toISOString();
}
