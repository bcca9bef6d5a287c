import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGovernor, PublishError, ApiRequestError, TokenCircuitError, type Governor } from '@tokencircuit/sdk';
import { waitFor } from '@tokencircuit/testing';
import { FleetStack } from './support/fleet-stack.js';
import { json, UpstreamServer } from './support/upstream-server.js';

/**
 * An agent that cannot reach Kafka: events go through POST /v1/events, preflight through the API, and
 * interventions are found by polling the audit API. Same backend, same guarantees.
 */
describe('the SDK over HTTP only', () => {
  let stack: FleetStack;
  let crm: UpstreamServer;
  const governors: Governor[] = [];

  beforeAll(async () => {
    stack = await FleetStack.start();
    crm = await UpstreamServer.start(json(403, { message: 'Resource not accessible by integration' }));
  });
  afterAll(async () => {
    for (const governor of governors) await governor.close();
    await crm?.close();
    await stack?.close();
  });

  const track = async (governor: Promise<Governor>) => {
    governors.push(await governor);
    return governors[governors.length - 1]!;
  };

  const contactsTool = (governor: Governor) =>
    governor.wrapTool(
      'crm.contacts',
      { effect: 'read', resourceClass: 'api_endpoint', resourceId: '/contacts', principal: 'svc-sales' },
      async (input: { segment: string }) => {
        const response = await fetch(`${crm.url}/contacts?segment=${input.segment}`);
        if (!response.ok) throw response;
        return response.json();
      },
    );

  it('ingests both events of a call, finds the intervention in the audit trail, then preflight denies', async () => {
    const governor = await track(
      createGovernor({
        tenant: 'acme',
        agent: 'sales-bot',
        run: 'run-http-1',
        transport: stack.httpTransport('acme'),
        waitForIntervention: { budgetMs: 20_000, pollIntervalMs: 100 },
      }),
    );
    const contacts = contactsTool(governor);
    const error = await contacts({ segment: 'enterprise' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TokenCircuitError);
    const stop = error as TokenCircuitError;
    expect(stop).toMatchObject({ source: 'intervention', level: 'block', nextAction: 'stop_request_authorization' });
    expect(stop.intervention).toMatchObject({ run: 'run-http-1', agent: 'sales-bot', backoff: null });
    expect(stop.artifact).toMatchObject({
      failure_class: 'permission',
      principal: 'svc-sales',
      resource_id: '/contacts',
    });

    const applied = await stack.appliedEventIds();
    expect(applied.has(stop.call.requestedEventId!)).toBe(true);
    expect(applied.has(stop.call.outcomeEventId!)).toBe(true);

    const again = await contacts({ segment: 'smb' }).catch((e: unknown) => e);
    expect(again).toBeInstanceOf(TokenCircuitError);
    expect((again as TokenCircuitError).source).toBe('preflight');
    expect(crm.received).toHaveLength(1);
  });

  it("another tenant's agent acting under the same principal name is not affected", async () => {
    const globex = await track(
      createGovernor({
        tenant: 'globex',
        agent: 'sales-bot',
        transport: stack.httpTransport('globex'),
        waitForIntervention: false,
      }),
    );
    crm.reply = json(200, [{ id: 'p-1' }]);
    await expect(contactsTool(globex)({ segment: 'enterprise' })).resolves.toEqual([{ id: 'p-1' }]);
  });

  it('a wrong API key is never silent: preflight refuses with 401, and publishing throws PublishError', async () => {
    const governor = await track(
      createGovernor({
        tenant: 'acme',
        agent: 'a',
        transport: stack.httpTransport('acme', 'not-a-valid-key-0123456789'),
        waitForIntervention: false,
      }),
    );
    let ran = 0;
    const tool = () => {
      ran++;
      return 'done';
    };
    const withPreflight = governor.wrapTool('noop', { effect: 'read' }, tool);
    const refused = await withPreflight().catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ApiRequestError);
    expect(refused).toMatchObject({ status: 401, retriable: false });

    const withoutPreflight = governor.wrapTool('noop', { effect: 'read', preflight: 'never' }, tool);
    const lost = await withoutPreflight().catch((e: unknown) => e);
    expect(lost).toBeInstanceOf(PublishError);
    expect((lost as PublishError).event.type).toBe('tool_call.requested');
    expect(ran).toBe(0);
  });

  it('onPublishError receives every event that could not be published, and the tool still runs', async () => {
    const failures: PublishError[] = [];
    const governor = await track(
      createGovernor({
        tenant: 'acme',
        agent: 'a',
        transport: stack.httpTransport('acme', 'not-a-valid-key-0123456789'),
        waitForIntervention: false,
        onPublishError: (error) => failures.push(error),
      }),
    );
    const tool = governor.wrapTool('lookup', { effect: 'read', preflight: 'never' }, async () => ({
      rows: [{ id: 1 }],
    }));
    await expect(tool()).resolves.toEqual({ rows: [{ id: 1 }] });
    expect(failures.map((f) => f.event.type)).toEqual(['tool_call.requested', 'tool_call.outcome']);
    expect(failures[1]).toMatchObject({ toolRan: true, toolResult: { rows: [{ id: 1 }] } });
  });

  it('verify() over HTTP reaches the projector like any other event', async () => {
    const governor = await track(
      createGovernor({
        tenant: 'acme',
        agent: 'search-bot',
        transport: stack.httpTransport('acme'),
        waitForIntervention: false,
      }),
    );
    const search = governor.wrapTool(
      'kb.search',
      { effect: 'read', resourceClass: 'index', resourceId: 'kb' },
      async (_input: { q: string }) => [] as string[],
    );
    await expect(search({ q: 'refund policy 2019' })).resolves.toEqual([]);
    const call = governor.lastCall('kb.search')!;
    const verification = await governor.verify(call, 'empty_result', { finding: 'confirmed' });
    // The empty read opened an "is this empty valid?" key; the verifier's answer resolves it.
    const resolved = async () => {
      const { rows } = await stack.database.pool.query<{ status: string }>(
        // The run's no_progress key for the tool (a success with a result digest opens one) is not this key.
        `SELECT status FROM failure_state WHERE tenant = 'acme' AND run = $1 AND tool_name = 'kb.search'
            AND error_class <> 'no_progress'`,
        [governor.run],
      );
      return rows.length === 1 && rows[0]!.status === 'resolved';
    };
    await waitFor(resolved, { maxWait: 20_000, name: 'the empty-result key to be resolved by the verifier' });
    expect((await stack.appliedEventIds()).has(verification.id)).toBe(true);
  });

  it('verify() sends v2 findings, inconclusive included, and still takes the v1 form', async () => {
    const governor = await track(
      createGovernor({
        tenant: 'acme',
        agent: 'lookup-bot',
        transport: stack.httpTransport('acme'),
        waitForIntervention: false,
      }),
    );
    const find = governor.wrapTool(
      'crm.find',
      { effect: 'read', resourceClass: 'index', resourceId: 'crm' },
      async (_input: { name: string }) => [] as string[],
    );
    await expect(find({ name: 'Ada' })).resolves.toEqual([]);
    const call = governor.lastCall('crm.find')!;
    const state = async () => {
      const { rows } = await stack.database.pool.query<{ cls: string; finding: string | null; vs: string }>(
        `SELECT state->>'failureClass' AS cls, state->>'finding' AS finding, state->>'verifierStatus' AS vs
           FROM failure_state WHERE tenant = 'acme' AND run = $1 AND tool_name = 'crm.find'`,
        [governor.run],
      );
      return rows[0] ?? null;
    };
    const inconclusive = await governor.verify(call, 'empty_result', { finding: 'inconclusive', detail: 'timed out' });
    expect(inconclusive.data).toMatchObject({ finding: 'inconclusive', resolved: { emptyCause: null } });
    expect(inconclusive.data).not.toHaveProperty('passed');
    await waitFor(async () => (await state())?.finding === 'inconclusive', {
      maxWait: 20_000,
      name: 'the inconclusive finding to be recorded',
    });
    expect(await state()).toEqual({ cls: 'ambiguous_effect', finding: 'inconclusive', vs: 'failed' });

    // The v1 input form: passed + emptyIsValid false + a cause is a refutation that reclassifies.
    const v1 = await governor.verify(call, 'empty_result', {
      passed: true,
      emptyIsValid: false,
      emptyCause: 'target_absent',
    });
    expect(v1.data).toMatchObject({ finding: 'refuted', resolved: { emptyCause: 'target_absent' } });
    await waitFor(async () => (await state())?.cls === 'missing_resource', {
      maxWait: 20_000,
      name: 'the refuted empty result to reclassify the key',
    });
    expect(await state()).toEqual({ cls: 'missing_resource', finding: 'empty_invalid', vs: 'pending' });
  });
});
