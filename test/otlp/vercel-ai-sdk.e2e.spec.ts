import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { context, SpanKind, SpanStatusCode, type Tracer } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { generateText, stepCountIs, tool } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { Agent, fetch as undiciFetch } from 'undici';
import { z } from 'zod';
import { FleetStack, TENANT_KEYS } from '../sdk/support/fleet-stack.js';
import { json, neverAnswer, UpstreamServer } from '../sdk/support/upstream-server.js';
import { interventionCausedBy } from './support/interventions.js';
import { agentTracing, otlpExporter } from './support/otel-agent.js';

/**
 * The Vercel AI SDK (ai v6) runs a scripted model with telemetry on; its `ai.toolCall` spans go out through
 * the OpenTelemetry SDK's OTLP exporter to POST /v1/traces. The RFC's permission case (a 403) and its
 * ambiguous-effect case (a POST that timed out after it was sent) produce the interventions the SDK specs
 * (test/sdk/permission-block, ambiguous-write) get through the SDK: same class, level, next action and key.
 */
describe('OTLP receiver: Vercel AI SDK generateText with experimental_telemetry', () => {
  let stack: FleetStack;
  let finance: UpstreamServer;
  let invoicing: UpstreamServer;
  const contextManager = new AsyncLocalStorageContextManager();
  // undici gives up waiting for response headers after 300 ms: the request itself was written.
  const dispatcher = new Agent({ headersTimeout: 300 });

  beforeAll(async () => {
    // What an instrumented app registers (NodeSDK does): the tool's HTTP span is a child of ai.toolCall.
    context.setGlobalContextManager(contextManager.enable());
    stack = await FleetStack.start();
    finance = await UpstreamServer.start(
      json(
        403,
        { error: 'forbidden' },
        { 'www-authenticate': 'Bearer error="insufficient_scope", scope="finance:read"' },
      ),
    );
    invoicing = await UpstreamServer.start(neverAnswer);
  });
  afterAll(async () => {
    await dispatcher.close();
    await finance?.close();
    await invoicing?.close();
    await stack?.close();
    context.disable();
  });

  /**
   * fetch with the HTTP client span @opentelemetry/instrumentation-undici would record (HTTP semantic
   * conventions: method, url.full, status or error.type): that instrumentation is not installed here.
   */
  async function tracedFetch(tracer: Tracer, url: string, init: { method: string; body?: string }) {
    const span = tracer.startSpan(init.method, {
      kind: SpanKind.CLIENT,
      attributes: { 'http.request.method': init.method, 'url.full': url },
    });
    try {
      const response = await undiciFetch(url, { ...init, dispatcher, headers: { 'content-type': 'application/json' } });
      span.setAttribute('http.response.status_code', response.status);
      const challenge = response.headers.get('www-authenticate');
      if (challenge) span.setAttribute('http.response.header.www-authenticate', [challenge]);
      if (response.status >= 400) {
        span.setAttribute('error.type', String(response.status));
        span.setStatus({ code: SpanStatusCode.ERROR });
      }
      return response;
    } catch (error) {
      const code = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).name;
      span.setAttribute('error.type', code);
      span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error).message });
      throw error;
    } finally {
      span.end();
    }
  }

  /** One agent turn: the model asks for the tool once, then answers; the tool's failure goes back to it. */
  async function run(options: {
    agent: string;
    conversation: string;
    principal: string;
    authScope: string;
    toolName: string;
    input: Record<string, unknown>;
    execute: (tracer: Tracer, input: Record<string, unknown>) => Promise<unknown>;
  }) {
    const exporter = otlpExporter(stack.apiUrl, TENANT_KEYS.acme, 'protobuf');
    const { provider, tracer } = agentTracing(exporter, { 'service.name': options.agent });
    let step = 0;
    const model = new MockLanguageModelV3({
      doGenerate: async () => {
        step += 1;
        const usage = {
          inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
          outputTokens: { total: 5, text: 5, reasoning: 0 },
        };
        return step === 1
          ? {
              content: [
                {
                  type: 'tool-call',
                  toolCallId: `call-${options.conversation}`,
                  toolName: options.toolName,
                  input: JSON.stringify(options.input),
                },
              ],
              finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
              usage,
              warnings: [],
            }
          : {
              content: [{ type: 'text', text: 'The tool failed.' }],
              finishReason: { unified: 'stop', raw: 'stop' },
              usage,
              warnings: [],
            };
      },
    });
    const result = await generateText({
      model,
      prompt: 'do the thing',
      stopWhen: stepCountIs(2),
      tools: {
        [options.toolName]: tool({
          inputSchema: z.record(z.string(), z.unknown()),
          execute: (input) => options.execute(tracer, input),
        }),
      },
      experimental_telemetry: {
        isEnabled: true,
        tracer,
        functionId: options.agent,
        // Telemetry metadata lands on every span of the call as ai.telemetry.metadata.<key>.
        metadata: {
          'tokencircuit.agent': options.agent,
          'tokencircuit.run': options.conversation,
          'tokencircuit.principal': options.principal,
          'tokencircuit.auth.scope': options.authScope,
        },
      },
    });
    await provider.forceFlush();
    expect(exporter.allSucceeded).toBe(true);
    const toolSpans = exporter.batches.flat().filter((s) => s.name === 'ai.toolCall');
    expect(toolSpans).toHaveLength(1);
    const { traceId, spanId } = toolSpans[0]!.spanContext();
    await provider.shutdown();
    return { result, outcomeId: `otel-${traceId}-${spanId}-outcome` };
  }

  it('a tool that gets a 403: blocked fleet-wide after the first classified failure (RFC case 1)', async () => {
    const { result, outcomeId } = await run({
      agent: 'report-agent-a',
      conversation: 'vercel-run-a',
      principal: 'svc-reporting',
      authScope: 'finance:read',
      toolName: 'finance.report',
      input: { query: 'sum(amount) by department' },
      execute: async (tracer, input) => {
        const response = await tracedFetch(
          tracer,
          `${finance.url}/reports/salaries?q=${encodeURIComponent(String(input.query))}`,
          { method: 'GET' },
        );
        if (!response.ok) throw new Error(`finance API answered ${response.status}`);
        return response.json();
      },
    });
    expect(result.steps[0]!.content.some((part) => part.type === 'tool-error')).toBe(true);

    const intervention = await interventionCausedBy(stack, [outcomeId], 'the permission intervention');
    // As test/sdk/permission-block.e2e.spec.ts asserts on the SDK's TokenCircuitError.
    expect(intervention.level).toBe('block');
    expect(intervention.next_action).toBe('stop_request_authorization');
    expect(intervention.artifact).toMatchObject({
      scope: 'fleet',
      tenant: 'acme',
      principal: 'svc-reporting',
      resource_id: '/reports/salaries',
      failure_class: 'permission',
      budget: 0,
      budget_exhausted: true,
      retry_count: 0,
      equivalence_key: {
        tool_name: 'finance.report',
        resource_class: 'api_endpoint',
        auth_scope: 'finance:read',
        error_class: 'permission',
        side_effect_boundary: false,
      },
    });
    expect(intervention.artifact.sample_receipts[0]).toMatch(/HTTP 403/);
    expect(intervention.artifact.causing_event_ids).toContain(outcomeId);

    // Fleet learning: another agent acting as the same principal is refused at preflight (through the SDK
    // or the MCP gateway; an OTLP-fed agent only reports after the fact).
    const preflight = await fetch(`${stack.apiUrl}/v1/preflight`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${TENANT_KEYS.acme}` },
      body: JSON.stringify({
        call: {
          agent: 'report-agent-b',
          run: 'run-b',
          callId: 'b-1',
          attempt: 1,
          intentId: 'b-1',
          tool: 'finance.report',
          effect: 'unknown',
          resourceClass: 'api_endpoint',
          resourceId: '/reports/salaries',
          principal: 'svc-reporting',
          authScope: 'finance:read',
          httpMethod: 'GET',
        },
      }),
    });
    expect(preflight.status).toBe(200);
    const answer = (await preflight.json()) as {
      allow: boolean;
      reason: string;
      artifact: { causing_event_ids: string[] };
    };
    expect(answer.allow).toBe(false);
    expect(answer.reason).toMatch(/principal \S+ is blocked fleet-wide on .*, after \d+ permission failures?/);
    expect(answer.artifact.causing_event_ids).toContain(outcomeId);
  });

  it('a POST that times out after it was sent: reconcile before retry (RFC case 5)', async () => {
    const before = invoicing.received.length;
    const { outcomeId } = await run({
      agent: 'billing-bot',
      conversation: 'vercel-run-invoices',
      principal: 'svc-billing',
      authScope: 'invoices:write',
      toolName: 'invoice.create',
      input: { customer: 'c-42', amount: 1200 },
      execute: async (tracer, input) => {
        const response = await tracedFetch(tracer, `${invoicing.url}/invoices`, {
          method: 'POST',
          body: JSON.stringify(input),
        });
        return response.json();
      },
    });
    expect(invoicing.received.length).toBe(before + 1);

    const intervention = await interventionCausedBy(stack, [outcomeId], 'the ambiguous-effect intervention');
    // As test/sdk/ambiguous-write.e2e.spec.ts asserts on the SDK's TokenCircuitError.
    expect(intervention.next_action).toBe('reconcile_before_retry');
    expect(['block', 'page']).toContain(intervention.level);
    expect(intervention.artifact).toMatchObject({
      failure_class: 'ambiguous_effect',
      scope: 'run',
      verifier_required: 'read_after_write',
      verifier_status: 'pending',
      equivalence_key: { tool_name: 'invoice.create', side_effect_boundary: true },
    });
    expect(intervention.artifact.side_effect_evidence).toEqual(
      expect.arrayContaining(['dispatch:request_sent', 'outcome:unknown']),
    );
  });
});
