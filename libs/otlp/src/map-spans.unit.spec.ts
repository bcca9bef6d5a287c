import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseAgentEvent } from '@tokencircuit/contracts';
import { mapSpans } from './map-spans.js';
import { OtlpInputError } from './otlp-input-error.js';
import { readTraceRequest } from './otlp-request.js';
import type { AttributeValue, OtlpSpan } from './otlp-span.js';

const TRACE = '0af7651916cd43dd8448eb211c80319c';

function span(attributes: Record<string, AttributeValue>, over: Partial<OtlpSpan> = {}): OtlpSpan {
  return {
    traceId: TRACE,
    spanId: 'b7ad6b7169203331',
    parentSpanId: null,
    name: 'span',
    kind: 1,
    startNanos: 1_767_607_205_000_000_000n,
    endNanos: 1_767_607_205_250_000_000n,
    attributes: new Map(Object.entries(attributes)),
    events: [],
    status: { code: 0, message: '' },
    resource: new Map([['service.name', 'svc']]),
    scope: 'test',
    ...over,
  };
}

const outcomeOf = (spans: OtlpSpan[]) => {
  const { calls } = mapSpans(spans, 'acme');
  expect(calls).toHaveLength(1);
  return parseAgentEvent(calls[0]!.events[1]) as Extract<
    ReturnType<typeof parseAgentEvent>,
    { type: 'tool_call.outcome' }
  >;
};

describe('mapSpans: one table per convention (docs/opentelemetry.md)', () => {
  it('GenAI execute_tool: tool, call id, agent, conversation as run, time and duration from the span', () => {
    const outcome = outcomeOf([
      span({
        'gen_ai.operation.name': 'execute_tool',
        'gen_ai.tool.name': 'search',
        'gen_ai.tool.call.id': 'call_1',
        'gen_ai.agent.name': 'researcher',
        'gen_ai.conversation.id': 'conv-9',
      }),
    ]);
    expect(outcome.time).toBe('2026-01-05T10:00:05.250Z');
    expect(outcome.data).toMatchObject({
      status: 'succeeded',
      durationMs: 250,
      call: { tool: 'search', callId: 'call_1', agent: 'researcher', run: 'conv-9', effect: 'unknown', attempt: 1 },
    });
  });

  it('run falls back to the trace id, callId to the span id, agent to service.name', () => {
    const outcome = outcomeOf([span({ 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'search' })]);
    expect(outcome.data.call).toMatchObject({ run: TRACE, callId: 'b7ad6b7169203331', agent: 'svc' });
  });

  it('Vercel ai.toolCall with an exception event; OpenInference TOOL; MCP tools/call; effect from tokencircuit.tool.effect', () => {
    const vercel = outcomeOf([
      span(
        {
          'ai.operationId': 'ai.toolCall',
          'ai.toolCall.name': 'weather',
          'ai.toolCall.id': 'tc-1',
          'ai.toolCall.args': '{"city":"Oslo"}',
          'ai.telemetry.metadata.tokencircuit.tool.effect': 'read',
        },
        {
          status: { code: 2, message: 'boom' },
          events: [
            {
              name: 'exception',
              timeNanos: 0n,
              attributes: new Map([
                ['exception.type', 'TypeError'],
                ['exception.message', 'fetch failed'],
              ]),
            },
          ],
        },
      ),
    ]);
    expect(vercel.data).toMatchObject({
      status: 'failed',
      call: { tool: 'weather', callId: 'tc-1', effect: 'read', arguments: { city: 'Oslo' } },
      error: { name: 'TypeError', message: 'fetch failed' },
    });
    const oi = outcomeOf([
      span({ 'openinference.span.kind': 'TOOL', 'tool.name': 'lookup', 'input.value': '{"id":3}' }),
    ]);
    expect(oi.data.call).toMatchObject({ tool: 'lookup', arguments: { id: 3 } });
    const mcp = outcomeOf([
      span(
        { 'mcp.method.name': 'tools/call', 'rpc.response.status_code': '-32602', 'error.type': '-32602' },
        { name: 'tools/call fetch', kind: 3, status: { code: 2, message: '' } },
      ),
    ]);
    expect(mcp.data).toMatchObject({
      protocol: 'mcp',
      call: { tool: 'fetch' },
      error: { jsonRpcCode: -32602 },
      dispatch: { requestSent: true, responseReceived: true },
    });
  });

  it('database and gRPC client spans under the tool give SQLSTATE, provider and gRPC codes', () => {
    const tool = span(
      { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'sql' },
      { status: { code: 2, message: 'denied' } },
    );
    const db = span(
      { 'db.system.name': 'postgresql', 'db.response.status_code': '42501', 'db.query.text': 'SELECT * FROM salaries' },
      { spanId: 'c7ad6b7169203331', parentSpanId: tool.spanId, kind: 3, status: { code: 2, message: '' } },
    );
    expect(outcomeOf([tool, db]).data).toMatchObject({
      provider: 'postgres',
      protocol: 'sql',
      error: { sqlState: '42501' },
      call: { sqlStatement: 'SELECT * FROM salaries' },
    });
    const grpc = span(
      { 'rpc.system': 'grpc', 'rpc.grpc.status_code': 7 },
      { spanId: 'd7ad6b7169203331', parentSpanId: tool.spanId, kind: 3 },
    );
    expect(outcomeOf([tool, grpc]).data).toMatchObject({ protocol: 'grpc', error: { grpcCode: 7 } });
  });

  it('spans that are not tool calls are counted by reason', () => {
    const { calls, ignored } = mapSpans(
      [
        span({ 'gen_ai.operation.name': 'chat' }),
        span({ 'mcp.method.name': 'tools/call', 'gen_ai.tool.name': 'x' }, { kind: 2 }),
        span({ 'gen_ai.operation.name': 'execute_tool' }, { name: 'no name here' }),
      ],
      'acme',
    );
    expect(calls).toHaveLength(0);
    expect(ignored).toEqual({ not_a_tool_call: 1, mcp_server_side: 1, no_tool_name: 1 });
  });

  it('deterministic: the same spans always give the same events (redelivery is idempotent)', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1, maxLength: 40 }),
        fc.integer({ min: 0, max: 2 }),
        fc.constantFrom('403', 'ECONNRESET', 'timeout'),
        (tool, status, errorType) => {
          const spans = [
            span(
              { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': tool, 'error.type': errorType },
              { status: { code: status, message: '' } },
            ),
          ];
          expect(mapSpans(spans, 'acme')).toEqual(mapSpans(spans, 'acme'));
        },
      ),
    );
  });
});

describe('readTraceRequest on arbitrary JSON', () => {
  it('returns spans or throws OtlpInputError, nothing else', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        try {
          readTraceRequest({ resourceSpans: [{ scopeSpans: [{ spans: [value] }] }] });
          readTraceRequest(value);
        } catch (error) {
          expect(error).toBeInstanceOf(OtlpInputError);
        }
      }),
      { numRuns: 300 },
    );
  });
});
