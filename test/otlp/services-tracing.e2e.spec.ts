import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SpanStatusCode, trace } from '@opentelemetry/api';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
} from '@opentelemetry/sdk-trace-base';
import { enableGovernanceTracing } from '@tokencircuit/tracing';
import { waitFor } from '@tokencircuit/testing';
import type { INestApplicationContext } from '@nestjs/common';
import { createTopic, randomTopic } from '@tokencircuit/testing';
import { FleetStack, TENANT_KEYS } from '../sdk/support/fleet-stack.js';
import { HttpReceiver } from '../notifier/support/http-receiver.js';
import { notifierEnv, startNotifier, writeNotifyFile } from '../notifier/support/notifier-harness.js';
import { agentTracing, child, httpClientSpan, otlpExporter } from './support/otel-agent.js';

/**
 * Decisions back into the agent's trace: with tracing on, the services' own spans (here caught by an
 * in-memory exporter registered as the process's tracer provider, where production has the OTLP exporter
 * of startServiceTracing) join the agent's trace through the traceparent its events carry:
 * agent span → projector span, agent span → decision span → intervention span, and agent span → the
 * notifier's delivery of the episode to the on-call webhook.
 */
describe('the services’ own traces join the agent’s trace', () => {
  let stack: FleetStack;
  let notifier: INestApplicationContext;
  const hook = new HttpReceiver(() => ({ status: 204 }));
  const services = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(services)] });

  beforeAll(async () => {
    trace.setGlobalTracerProvider(provider);
    enableGovernanceTracing();
    stack = await FleetStack.start();
    await hook.start();
    notifier = await startNotifier(
      notifierEnv({
        databaseUrl: stack.database.url,
        episodesTopic: stack.topics.episodes,
        dlqTopic: await createTopic(randomTopic('tracing-notifier-dlq'), 1),
        notifyFile: writeNotifyFile({
          sinks: { oncall: { type: 'webhook', url: hook.url, secret: { env: 'HOOK_SECRET' } } },
          routes: [{ sinks: ['oncall'] }],
        }),
        extra: { HOOK_SECRET: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' },
      }),
    );
  });
  afterAll(async () => {
    await notifier?.close();
    await hook.stop();
    await stack?.close();
    enableGovernanceTracing(false);
    await provider.shutdown();
    trace.disable();
  });

  it('one trace: execute_tool (agent) → projector → decision → intervention with its class, level and next action → the page delivered', async () => {
    const exporter = otlpExporter(stack.apiUrl, TENANT_KEYS.acme, 'protobuf');
    const agent = agentTracing(exporter, {
      'service.name': 'reporting-agent',
      'tokencircuit.principal': 'svc-tracing',
    });
    const turn = agent.tracer.startSpan('invoke_agent reporting', {
      attributes: { 'gen_ai.operation.name': 'invoke_agent' },
    });
    const tool = child(agent.tracer, turn, 'execute_tool finance.report');
    tool.setAttributes({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'finance.report',
      'tokencircuit.auth.scope': 'finance:read',
    });
    httpClientSpan(agent.tracer, tool, 'GET', 'https://finance.example/reports/bonuses', { status: 403 });
    tool.setStatus({ code: SpanStatusCode.ERROR, message: 'forbidden' });
    tool.end();
    turn.end();
    await agent.provider.forceFlush();
    expect(exporter.allSucceeded).toBe(true);
    const { traceId, spanId: toolSpanId } = tool.spanContext();

    const inTrace = (): ReadableSpan[] =>
      services.getFinishedSpans().filter((s) => s.spanContext().traceId === traceId);
    const spans = await waitFor(
      () => {
        const found = inTrace();
        return found.some((s) => s.name.startsWith('tokencircuit.intervention')) ? found : null;
      },
      { maxWait: 30_000, name: "the intervention span in the agent's trace" },
    );
    const projected = spans.filter((s) => s.name === 'tokencircuit.projector project');
    const decision = spans.find((s) => s.name === 'tokencircuit.decision decide')!;
    const intervention = spans.find((s) => s.name.startsWith('tokencircuit.intervention'))!;

    // Both events of the call (requested, outcome) were projected under the agent's tool span.
    expect(projected.map((s) => s.attributes['tokencircuit.event.type']).sort()).toEqual([
      'tool_call.outcome',
      'tool_call.requested',
    ]);
    for (const span of projected) expect(span.parentSpanContext?.spanId).toBe(toolSpanId);
    expect(decision.parentSpanContext?.spanId).toBe(toolSpanId);
    expect(intervention.parentSpanContext?.spanId).toBe(decision.spanContext().spanId);
    expect(intervention.name).toBe('tokencircuit.intervention block stop_request_authorization');
    expect(intervention.attributes).toMatchObject({
      'tokencircuit.failure.class': 'permission',
      'tokencircuit.intervention.level': 'block',
      'tokencircuit.intervention.next_action': 'stop_request_authorization',
      'tokencircuit.key.tool': 'finance.report',
      'tokencircuit.key.auth_scope': 'finance:read',
      'tokencircuit.principal': 'svc-tracing',
      'tokencircuit.resource.id': '/reports/bonuses',
    });
    expect(decision.events.map((e) => e.name)).toEqual(['tokencircuit.intervention']);

    const delivered = await waitFor(
      () => inTrace().find((s) => s.name === 'tokencircuit.notifier deliver webhook') ?? null,
      { maxWait: 30_000, name: "the notifier's delivery span in the agent's trace" },
    );
    expect(hook.requests.length).toBeGreaterThan(0);
    expect(delivered.parentSpanContext?.spanId).toBe(toolSpanId);
    expect(delivered.attributes).toMatchObject({
      'tokencircuit.sink': 'oncall',
      'tokencircuit.delivery.outcome': 'sent',
      'tokencircuit.episode.transition': 'triggered',
      'tokencircuit.failure.class': 'permission',
      'http.response.status_code': 204,
    });
    await agent.provider.shutdown();
  });
});
