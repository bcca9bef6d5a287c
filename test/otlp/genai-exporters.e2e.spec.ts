import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SpanStatusCode } from '@opentelemetry/api';
import { waitFor } from '@tokencircuit/testing';
import { FleetStack, TENANT_KEYS } from '../sdk/support/fleet-stack.js';
import { agentTracing, child, httpClientSpan, otlpExporter, type Encoding } from './support/otel-agent.js';

interface StoredEvent {
  id: string;
  type: string;
  run: string;
  agent: string;
  cloud_event: { traceparent?: string; data: Record<string, any> };
}

/**
 * GenAI `execute_tool` spans from the OpenTelemetry JS SDK, exported by its own OTLP exporters (protobuf
 * with gzip, and JSON) to POST /v1/traces, land as agent events in the real pipeline (Kafka, projector,
 * Postgres) with the span's trace context.
 */
describe('OTLP receiver: GenAI execute_tool spans from the OpenTelemetry JS SDK exporters', () => {
  let stack: FleetStack;

  beforeAll(async () => {
    stack = await FleetStack.start();
  });
  afterAll(async () => {
    await stack?.close();
  });

  const storedOfTrace = async (traceId: string): Promise<StoredEvent[]> => {
    const { rows } = await stack.database.pool.query<StoredEvent>(
      `SELECT id, type, run, agent, tokencircuit_cloud_event(agent_events) AS cloud_event FROM agent_events WHERE id LIKE $1 ORDER BY seq`,
      [`otel-${traceId}-%`],
    );
    return rows;
  };

  /** An agent turn: invoke_agent → chat (not a tool) + execute_tool → GET (403). */
  async function agentTurn(encoding: Encoding, gzip: boolean, conversation: string) {
    const exporter = otlpExporter(stack.apiUrl, TENANT_KEYS.acme, encoding, gzip);
    const { provider, tracer } = agentTracing(exporter, {
      'service.name': 'reporting-agent',
      'tokencircuit.principal': 'svc-reporting',
    });
    const agent = tracer.startSpan('invoke_agent reporting', {
      attributes: { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': 'report-agent' },
    });
    const chat = child(tracer, agent, 'chat gpt-5');
    chat.setAttributes({ 'gen_ai.operation.name': 'chat', 'gen_ai.request.model': 'gpt-5' });
    chat.end();
    const tool = child(tracer, agent, 'execute_tool finance.report');
    tool.setAttributes({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'finance.report',
      'gen_ai.tool.call.id': `call-${conversation}`,
      'gen_ai.tool.type': 'function',
      'gen_ai.agent.name': 'report-agent',
      'gen_ai.conversation.id': conversation,
      'gen_ai.tool.call.arguments': JSON.stringify({ query: 'sum(amount)', token: 'sk-live-abcdefghijklmnopqrstuvwx' }),
      'tokencircuit.auth.scope': 'finance:read',
    });
    httpClientSpan(tracer, tool, 'GET', 'https://finance.example/reports/salaries?q=1', {
      status: 403,
      headers: { 'www-authenticate': 'Bearer error="insufficient_scope"' },
    });
    tool.setAttribute('error.type', '403');
    tool.setStatus({ code: SpanStatusCode.ERROR, message: 'finance API answered 403 Forbidden' });
    tool.end();
    agent.end();
    await provider.forceFlush();
    return { exporter, provider, traceId: tool.spanContext().traceId, spanId: tool.spanContext().spanId };
  }

  it.each([
    ['protobuf', true],
    ['json', false],
  ] as const)(
    '%s exporter (gzip %s): one execute_tool span → requested + failed outcome, chat and agent spans ignored',
    async (encoding, gzip) => {
      const conversation = `conv-${encoding}`;
      const { exporter, provider, traceId, spanId } = await agentTurn(encoding, gzip, conversation);
      expect(exporter.allSucceeded).toBe(true);

      const events = await waitFor(
        async () => {
          const rows = await storedOfTrace(traceId);
          return rows.length === 2 ? rows : null;
        },
        { maxWait: 30_000, name: `the ${encoding} export's two events in agent_events` },
      );
      expect(events.map((e) => e.id)).toEqual([
        `otel-${traceId}-${spanId}-requested`,
        `otel-${traceId}-${spanId}-outcome`,
      ]);
      expect(events.map((e) => e.type)).toEqual(['tool_call.requested', 'tool_call.outcome']);
      for (const event of events) {
        expect(event.run).toBe(conversation);
        expect(event.agent).toBe('report-agent');
        // The span's trace context rides with the events: the services' spans join the agent's trace through it.
        expect(event.cloud_event.traceparent).toBe(`00-${traceId}-${spanId}-01`);
      }
      const outcome = events[1]!.cloud_event.data;
      expect(outcome.call).toMatchObject({
        tool: 'finance.report',
        callId: `call-${conversation}`,
        principal: 'svc-reporting',
        authScope: 'finance:read',
        resourceClass: 'api_endpoint',
        resourceId: '/reports/salaries',
        httpMethod: 'GET',
        effect: 'unknown',
      });
      // Secrets in attributes are redacted like every other field.
      expect(JSON.stringify(outcome.call.arguments)).not.toContain('sk-live-abcdefghijklmnopqrstuvwx');
      expect(outcome.call.arguments.query).toBe('sum(amount)');
      expect(outcome).toMatchObject({
        status: 'failed',
        protocol: 'http',
        dispatch: { requestSent: true, responseReceived: true },
        error: {
          httpStatus: 403,
          message: 'finance API answered 403 Forbidden',
          headers: { 'www-authenticate': 'Bearer error="insufficient_scope"' },
        },
      });
      await provider.shutdown();
    },
  );

  it('the same spans delivered again are accepted and stored once (ids come from the span ids)', async () => {
    const { exporter, provider, traceId } = await agentTurn('protobuf', false, 'conv-redelivery');
    await waitFor(async () => ((await storedOfTrace(traceId)).length === 2 ? true : null), {
      maxWait: 30_000,
      name: 'the first delivery stored',
    });
    // The collector's retry: the same spans again, through the SDK's exporter.
    for (const batch of [...exporter.batches]) expect((await exporter.resend(batch)).code).toBe(0);
    expect(exporter.allSucceeded).toBe(true);
    // A later span of the same conversation (same partition, after the resend) marks the resend as projected.
    const marker = await agentTurn('protobuf', false, 'conv-redelivery');
    await waitFor(async () => ((await storedOfTrace(marker.traceId)).length === 2 ? true : null), {
      maxWait: 30_000,
      name: 'the marker after the resend stored',
    });
    expect(await storedOfTrace(traceId)).toHaveLength(2);
    await Promise.all([provider.shutdown(), marker.provider.shutdown()]);
  });
});
