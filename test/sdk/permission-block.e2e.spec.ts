import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGovernor, TokenCircuitError, type Governor } from '@tokencircuit/sdk';
import { FleetStack } from './support/fleet-stack.js';
import { json, UpstreamServer } from './support/upstream-server.js';

/**
 * RFC test case 1 through the SDK and the real backend (Kafka, projector, decision, API, Postgres):
 * the same principal on the same restricted resource, with different model-generated queries, has a
 * budget of 0 after the first classified failure — and every agent of the fleet learns it.
 */
describe('a tool that keeps failing with 403 is blocked after the first classified failure', () => {
  let stack: FleetStack;
  let finance: UpstreamServer;
  const governors: Governor[] = [];

  beforeAll(async () => {
    stack = await FleetStack.start();
    // The finance API refuses svc-reporting on the salaries report, whatever the query.
    finance = await UpstreamServer.start(
      json(
        403,
        { error: 'forbidden' },
        { 'www-authenticate': 'Bearer error="insufficient_scope", scope="finance:read"' },
      ),
    );
  });
  afterAll(async () => {
    for (const governor of governors) await governor.close();
    await finance?.close();
    await stack?.close();
  });

  async function reportingAgent(agent: string, run: string, principal = 'svc-reporting'): Promise<Governor> {
    const started = Date.now();
    const governor = await createGovernor({
      tenant: 'acme',
      agent,
      run,
      principal,
      authScope: 'finance:read',
      transport: stack.kafkaTransport(),
      // Generous for a shared 2-core CI machine; the measured latency is printed below.
      waitForIntervention: { budgetMs: 20_000 },
    });
    governors.push(governor);
    console.info(
      `[sdk e2e] createGovernor (producer + interventions consumer group joined) took ${Date.now() - started} ms`,
    );
    return governor;
  }

  const salariesTool = (governor: Governor) =>
    governor.wrapTool(
      'finance.report',
      { effect: 'read', resourceClass: 'api_endpoint', resourceId: '/reports/salaries', httpMethod: 'GET' },
      async ({ query }: { query: string }) => {
        const response = await fetch(`${finance.url}/reports/salaries?q=${encodeURIComponent(query)}`);
        if (!response.ok) throw response;
        return (await response.json()) as unknown;
      },
    );

  /**
   * Agent A's one real attempt as `principal` (a principal of its own per test, blocked fleet-wide by it):
   * its governor and the tool_call.outcome every later denial points to.
   */
  async function deniedOnce(principal: string) {
    const governor = await reportingAgent(`agent-a-${principal}`, `run-a-${principal}`, principal);
    const error = await salariesTool(governor)({ query: 'sum(amount) by department' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TokenCircuitError);
    expect((error as TokenCircuitError).source).toBe('intervention');
    return { governor, firstOutcomeId: (error as TokenCircuitError).call.outcomeEventId! };
  }

  it('first call: the 403 comes back as a TokenCircuitError carrying the permission artifact', async () => {
    const governor = await reportingAgent('report-agent-a', 'run-a');
    const report = salariesTool(governor);
    const started = Date.now();
    const error = await report({ query: 'sum(amount) by department' }).catch((e: unknown) => e);
    const elapsed = Date.now() - started;

    expect(error).toBeInstanceOf(TokenCircuitError);
    const stop = error as TokenCircuitError;
    expect(stop.source).toBe('intervention');
    expect(stop.level).toBe('block');
    expect(stop.nextAction).toBe('stop_request_authorization');
    expect((stop.cause as Response).status).toBe(403);
    expect(stop.artifact).toMatchObject({
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
    expect(stop.artifact.sample_receipts[0]).toMatch(/HTTP 403/);
    expect(stop.artifact.causing_event_ids).toContain(stop.call.outcomeEventId!);
    expect(governor.callOf(stop)).toBe(stop.call);
    // The model gets a sentence; the artifact stays with the application.
    expect(stop.toToolResult()).toEqual({
      error: 'tokencircuit_stopped',
      tool: 'finance.report',
      nextAllowedAction: 'stop_request_authorization',
      message: stop.toModelMessage(),
    });
    expect(stop.toModelMessage()).toMatch(/^TokenCircuit stopped finance\.report: svc-reporting is not authorized/);
    console.info(
      `[sdk e2e] 403 → intervention on the thrown error after ${elapsed} ms (call, Kafka, projector, decision, Kafka)`,
    );
  });

  it('second call, a different query: denied at preflight, the finance API never sees it', async () => {
    const { governor } = await deniedOnce('svc-payroll');
    const report = salariesTool(governor);
    const before = finance.received.length;
    const error = await report({ query: 'SELECT * FROM salaries WHERE dept = 7' }).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(TokenCircuitError);
    const stop = error as TokenCircuitError;
    expect(stop.source).toBe('preflight');
    expect(stop.nextAction).toBe('stop_request_authorization');
    expect(stop.reason).toMatch(/principal \S+ is blocked fleet-wide on .* since .*, after \d+ permission failures?/);
    expect(stop.artifact).toMatchObject({ failure_class: 'permission', budget: 0, principal: 'svc-payroll' });
    expect(stop.call.status).toBe('denied');
    expect(finance.received.length).toBe(before);
  });

  it('another agent in another run, acting as the same principal, is stopped before it tries', async () => {
    const { firstOutcomeId } = await deniedOnce('svc-ledger');
    const other = await reportingAgent('report-agent-b', 'run-b', 'svc-ledger');
    const before = finance.received.length;
    const error = await salariesTool(other)({ query: 'avg(amount)' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TokenCircuitError);
    expect((error as TokenCircuitError).source).toBe('preflight');
    expect((error as TokenCircuitError).artifact.causing_event_ids).toContain(firstOutcomeId);
    expect(finance.received.length).toBe(before);
  });
});
