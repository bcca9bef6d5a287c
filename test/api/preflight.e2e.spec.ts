import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAgentEvent } from '@tokencircuit/contracts';
import { DEFAULT_CONFIG, redactEvent, type FailureState } from '@tokencircuit/governance';
import { PreflightResponseSchema } from '@tokencircuit/api-http';
import { permissionDenied, timedOutAfterDispatch, toolCall } from '@tokencircuit/contracts/testing';
import { ApiHarness } from './support/api-harness.js';
import { seedFromEvents } from './support/seed.js';

/**
 * Preflight against states the real core folded (governance.replay) and the projector's row shape:
 * agent B learns from agent A's failure before it tries.
 */
describe('POST /v1/preflight (real Postgres)', () => {
  let api: ApiHarness;
  let fleetBlock: FailureState;
  let awaitingReconciliation: FailureState;

  // Agent A (run-a) is denied on finance.salaries as svc-reporting: a fleet-scoped permission key.
  const deniedCall = toolCall({
    agent: 'agent-a',
    run: 'run-a',
    principal: 'svc-reporting',
    resourceId: 'finance.salaries',
  });
  // A billing agent's POST timed out after dispatch: a run-scoped ambiguous_effect key awaiting verification.
  const invoiceCall = toolCall({
    agent: 'billing-bot',
    run: 'run-5',
    tool: 'create_invoice',
    effect: 'write',
    httpMethod: 'POST',
    resourceClass: 'api_endpoint',
    resourceId: null,
    authScope: 'invoices:write',
    principal: 'svc-billing',
    sqlStatement: null,
    arguments: { customer: 'c-42', amount: 1200 },
  });

  beforeAll(async () => {
    api = await ApiHarness.start();
    const seeded = await seedFromEvents(
      api.database.pool,
      [permissionDenied('acme', deniedCall), timedOutAfterDispatch('acme', invoiceCall)],
      DEFAULT_CONFIG,
    );
    fleetBlock = seeded.states.find((s) => s.key.scope === 'fleet')!;
    awaitingReconciliation = seeded.states.find((s) => s.failureClass === 'ambiguous_effect')!;
    expect(fleetBlock.status).toBe('blocked');
    expect(awaitingReconciliation.status).toBe('awaiting_verification');
  });
  afterAll(async () => {
    await api?.close();
  });

  const ask = async (tenant: 'acme' | 'globex', call: ReturnType<typeof toolCall>) => {
    const response = await api.as(tenant, '/v1/preflight', { body: { call } });
    expect(response.status).toBe(200);
    return PreflightResponseSchema.parse(await response.json());
  };

  it("denies agent B in another run the principal's blocked resource, with agent A's artifact", async () => {
    const agentB = toolCall({
      agent: 'agent-b',
      run: 'run-b',
      principal: 'svc-reporting',
      resourceId: 'finance.salaries',
      arguments: { q: 'SELECT 1' },
    });
    const answer = await ask('acme', agentB);
    expect(answer.allow).toBe(false);
    expect(answer.reason).toContain(fleetBlock.keyId);
    expect(answer.decision).toMatchObject({ level: 'block', nextAction: 'stop_request_authorization' });
    expect(answer.artifact).toMatchObject({
      key_id: fleetBlock.keyId,
      scope: 'fleet',
      tenant: 'acme',
      principal: 'svc-reporting',
      resource_id: 'finance.salaries',
      failure_class: 'permission',
      budget: 0,
      budget_exhausted: true,
      equivalence_key: {
        tool_name: 'sql.query',
        resource_class: 'sql_namespace',
        auth_scope: 'finance:read',
        error_class: 'permission',
      },
    });
    expect(answer.artifact!.causing_event_ids).toEqual(fleetBlock.causingEventIds);
    expect(answer.artifact!.safety_justification.length).toBeGreaterThan(0);
  });

  it('allows another principal, and another resource of the same principal', async () => {
    const otherPrincipal = await ask(
      'acme',
      toolCall({ agent: 'agent-b', run: 'run-b', principal: 'svc-admin', resourceId: 'finance.salaries' }),
    );
    expect(otherPrincipal).toMatchObject({ allow: true, decision: null, artifact: null });
    const otherResource = await ask(
      'acme',
      toolCall({ agent: 'agent-b', run: 'run-b', principal: 'svc-reporting', resourceId: 'sales.orders' }),
    );
    expect(otherResource.allow).toBe(true);
  });

  it("never answers from another tenant's state: globex's svc-reporting is not acme's", async () => {
    const answer = await ask(
      'globex',
      toolCall({ agent: 'agent-b', run: 'run-b', principal: 'svc-reporting', resourceId: 'finance.salaries' }),
    );
    expect(answer).toMatchObject({ allow: true, artifact: null });
  });

  it('blocks re-sending a write whose effect is unknown, but lets the read-back through', async () => {
    const writeAgain = { ...invoiceCall, callId: 'call-retry', attempt: 2 };
    const denied = await ask('acme', writeAgain);
    expect(denied.allow).toBe(false);
    expect(denied.reason).toMatch(
      /'s write to \S+ on .* may have taken effect: reconcile it with a read-after-write before writing again/,
    );
    expect(denied.artifact).toMatchObject({
      key_id: awaitingReconciliation.keyId,
      failure_class: 'ambiguous_effect',
      verifier_required: 'read_after_write',
      equivalence_key: { side_effect_boundary: true },
    });
    const readBack = await ask('acme', {
      ...invoiceCall,
      callId: 'call-read',
      effect: 'read',
      httpMethod: 'GET',
      arguments: { customer: 'c-42' },
    });
    expect(readBack.allow).toBe(true);
  });

  it('finds a block on a resource id that held credentials, asked with the raw id, and shows no secret', async () => {
    // What the projector stores: the event after the edge's redaction step, key id computed from it.
    const withPassword = toolCall({
      agent: 'agent-c',
      run: 'run-c',
      principal: 'svc-etl',
      resourceId: 'postgres://etl:Hunter2Hunter2@warehouse.internal:5432/finance',
    });
    const { states } = await seedFromEvents(
      api.database.pool,
      [redactEvent(parseAgentEvent(permissionDenied('acme', withPassword)))],
      DEFAULT_CONFIG,
    );
    expect(states[0]!.keyId).not.toContain('Hunter2');
    const response = await api.as('acme', '/v1/preflight', {
      body: { call: { ...withPassword, agent: 'agent-d', run: 'run-d', callId: 'call-d' } },
    });
    const text = await response.text();
    expect(PreflightResponseSchema.parse(JSON.parse(text)).allow).toBe(false);
    expect(text).not.toContain('Hunter2');
    expect(text).toContain('postgres://etl:[REDACTED:password]@warehouse.internal:5432/finance');
  });

  it('answers 400 naming the field of a bad call, and 401 without a key', async () => {
    const bad = await api.as('acme', '/v1/preflight', { body: { call: { ...deniedCall, effect: 'maybe' } } });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ error: 'invalid_field', field: 'call.effect' });
    const extra = await api.as('acme', '/v1/preflight', { body: { call: deniedCall, tenant: 'globex' } });
    expect(extra.status).toBe(400);
    expect(await extra.json()).toMatchObject({ field: 'tenant' });
    expect((await api.request('/v1/preflight', { body: { call: deniedCall } })).status).toBe(401);
  });

  it('records its latency in a histogram', async () => {
    const metrics = await (await api.request('/metrics')).text();
    expect(metrics).toMatch(/tokencircuit_api_preflight_duration_seconds_count \d+/);
    expect(metrics).toMatch(/tokencircuit_api_preflight_total\{allow="false"\} \d+/);
  });
});
