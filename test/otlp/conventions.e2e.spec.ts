import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { context, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { getToolAttributes, traceTool } from '@arizeai/openinference-core';
import { ApiHarness, KEYS } from '../api/support/api-harness.js';
import { agentTracing, child, otlpExporter } from './support/otel-agent.js';
import { eventsWithPrefix } from './support/topic-events.js';

/**
 * The other conventions through the real exporters: an OpenInference TOOL span written by
 * @arizeai/openinference-core's traceTool, and MCP tools/call spans as the MCP semantic conventions
 * describe them (client side mapped, server side counted and ignored).
 */
describe('OTLP receiver: OpenInference and MCP tool spans', () => {
  let api: ApiHarness;
  const contextManager = new AsyncLocalStorageContextManager();

  beforeAll(async () => {
    context.setGlobalContextManager(contextManager.enable());
    api = await ApiHarness.start();
  });
  afterAll(async () => {
    await api?.close();
    context.disable();
  });

  it('OpenInference traceTool: a TOOL span whose function throws → a failed outcome with the exception', async () => {
    const exporter = otlpExporter(api.baseUrl, KEYS.acme, 'json');
    const { provider, tracer } = agentTracing(exporter, { 'service.name': 'crm-agent' });
    const lookup = traceTool(
      async (_input: { customer: string }) => {
        throw Object.assign(new Error('connect ECONNREFUSED 10.0.0.7:443'), { name: 'ECONNREFUSED' });
      },
      {
        name: 'crm.lookup',
        tracer,
        attributes: {
          ...getToolAttributes({ name: 'crm.lookup', parameters: { customer: { type: 'string' } } }),
          'session.id': 'oi-session-1',
          'user.id': 'svc-crm',
        },
      },
    );
    await expect(lookup({ customer: 'c-7' })).rejects.toThrow('ECONNREFUSED');
    await provider.forceFlush();
    expect(exporter.allSucceeded).toBe(true);
    const span = exporter.batches.flat().find((s) => s.name === 'crm.lookup')!;
    const prefix = `otel-${span.spanContext().traceId}-${span.spanContext().spanId}`;

    const events = await eventsWithPrefix(api.topic, prefix, 2);
    const outcome = events.find((e) => e.event.type === 'tool_call.outcome')!;
    expect(outcome.traceparent).toBe(`00-${span.spanContext().traceId}-${span.spanContext().spanId}-01`);
    expect(outcome.event.data).toMatchObject({
      call: {
        tool: 'crm.lookup',
        run: 'oi-session-1',
        agent: 'crm-agent',
        principal: 'svc-crm',
        arguments: { customer: 'c-7' },
      },
      status: 'failed',
      error: { errno: 'ECONNREFUSED', message: 'connect ECONNREFUSED 10.0.0.7:443' },
      dispatch: { requestSent: false, responseReceived: false },
    });
    await provider.shutdown();
  });

  it('MCP tools/call: the client span is mapped (isError → tool_error), the server span and tools/list are not', async () => {
    const exporter = otlpExporter(api.baseUrl, KEYS.acme, 'protobuf', true);
    const { provider, tracer } = agentTracing(exporter, { 'service.name': 'mcp-agent' });
    const turn = tracer.startSpan('invoke_agent');
    const list = child(tracer, turn, 'tools/list', SpanKind.CLIENT);
    list.setAttributes({ 'mcp.method.name': 'tools/list', 'mcp.session.id': 'mcp-s-1' });
    list.end();
    const call = child(tracer, turn, 'tools/call get-weather', SpanKind.CLIENT);
    call.setAttributes({
      'mcp.method.name': 'tools/call',
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'get-weather',
      'mcp.session.id': 'mcp-s-1',
      'jsonrpc.request.id': '7',
      'error.type': 'tool_error',
    });
    call.setStatus({ code: SpanStatusCode.ERROR, message: 'city not found: Atlantis' });
    const server = tracer.startSpan(
      'tools/call get-weather',
      { kind: SpanKind.SERVER },
      trace.setSpan(context.active(), call),
    );
    server.setAttributes({
      'mcp.method.name': 'tools/call',
      'gen_ai.tool.name': 'get-weather',
      'error.type': 'tool_error',
    });
    server.end();
    call.end();
    turn.end();
    await provider.forceFlush();
    expect(exporter.allSucceeded).toBe(true);

    const ids = call.spanContext();
    const events = await eventsWithPrefix(api.topic, `otel-${ids.traceId}-`, 2);
    expect(events.map((e) => e.event.id)).toEqual([
      `otel-${ids.traceId}-${ids.spanId}-requested`,
      `otel-${ids.traceId}-${ids.spanId}-outcome`,
    ]);
    expect(events[1]!.event.data).toMatchObject({
      call: { tool: 'get-weather', run: 'mcp-s-1', agent: 'mcp-agent', callId: ids.spanId },
      status: 'failed',
      protocol: 'mcp',
      error: { name: 'tool_error', message: 'city not found: Atlantis' },
    });
    const metrics = await (await api.request('/metrics')).text();
    expect(metrics).toMatch(/tokencircuit_api_otlp_spans_total\{outcome="ignored",convention="mcp_server_side"\} 1/);
    await provider.shutdown();
  });
});
