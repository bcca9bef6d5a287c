import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../config/load-config.js';
import { SpecAgent, SpecOperator, Timeline } from '@tokencircuit/contracts/testing';
import { governanceSpec } from '../testing/spec.js';
import { createGovernance } from '../governance.js';
import { evolve } from './evolve.js';

const governance = createGovernance(DEFAULT_CONFIG);

const timeline = new Timeline();
const agent = new SpecAgent(timeline, 'acme', 'ops-bot', 'run-6', {
  resourceClass: 'k8s_deployment',
  principal: 'svc-ops',
  effect: 'read',
});
const spec = governanceSpec();

describe('evolve', () => {
  const call = agent.call('get_deployment', { resourceId: 'payments-api' });
  const failed = agent.failed(call, { httpStatus: 503 });
  const state = evolve(null, failed, DEFAULT_CONFIG)!;

  it('opens a key from nothing only for a classified failure', () => {
    expect(state).toMatchObject({ failureClass: 'transient', version: 1, episode: 1, causingEventIds: [failed.id] });
    expect(evolve(null, agent.requested(call), DEFAULT_CONFIG)).toBeNull();
    expect(evolve(null, agent.succeeded(call), DEFAULT_CONFIG)).toBeNull();
  });

  it('returns the very same object for events that do not concern the key', () => {
    const elsewhere = new SpecAgent(timeline, 'acme', 'ops-bot', 'run-7', { resourceClass: 'k8s_deployment' });
    const otherTenant = new SpecAgent(timeline, 'globex', 'ops-bot', 'run-6', { resourceClass: 'k8s_deployment' });
    for (const event of [
      elsewhere.failed(elsewhere.call('get_deployment'), { httpStatus: 503 }),
      otherTenant.requested(otherTenant.call('get_deployment')),
      agent.requested(agent.call('list_pods')),
      agent.verified(call, 'read_after_write', 'confirmed'),
      new SpecOperator(timeline, 'acme', 'op').resolves('run|acme|run=run-6|other|~|~|transient|seb=0', 'reset', 'x'),
    ]) {
      expect(evolve(state, event, DEFAULT_CONFIG)).toBe(state);
    }
  });

  it('a call id already counted is not counted again (requested then outcome)', () => {
    const retry = agent.retry(call);
    const afterRequest = evolve(state, agent.requested(retry), DEFAULT_CONFIG)!;
    expect(afterRequest.retryCount).toBe(1);
    expect(evolve(afterRequest, agent.requested(retry), DEFAULT_CONFIG)).toBe(afterRequest);
    expect(evolve(afterRequest, agent.failed(retry, { httpStatus: 503 }), DEFAULT_CONFIG)).toMatchObject({
      retryCount: 1,
      failures: 2,
    });
  });

  it('bounds what it remembers: three receipts, twenty causing events', () => {
    let s = state;
    let previous = call;
    for (let i = 0; i < 30; i += 1) {
      previous = agent.retry(previous);
      s = evolve(s, agent.failed(previous, { httpStatus: 503, message: `attempt ${i}` }), DEFAULT_CONFIG)!;
    }
    expect(s.lastReceipts).toHaveLength(3);
    expect(s.causingEventIds).toHaveLength(20);
    expect(s.retryCount).toBe(30);
  });

  it('an operator of another tenant cannot touch the key, even naming it exactly', () => {
    const intruder = new SpecOperator(timeline, 'globex', 'mallory').resolves(state.keyId, 'reset', 'let me in');
    expect(evolve(state, intruder, DEFAULT_CONFIG)).toBe(state);
  });
});

describe('missing_resource: a retry needs a resolved identifier', () => {
  const lookup = agent.call('get_deployment', { resourceId: 'payment-api' });
  const notFound = agent.failed(lookup, { httpStatus: 404, message: 'deployments.apps "payment-api" not found' });
  const keyId = 'run|acme|run=run-6|get_deployment|k8s_deployment|~|missing_resource|seb=0';

  it('opens with budget +1 and asks for discovery or confirmation', () => {
    spec
      .given([])
      .when(notFound)
      .then({
        keyId,
        status: 'open',
        verifierRequired: 'resource_resolution',
        missingResourceIds: ['payment-api'],
        decision: { nextAction: 'discover_or_confirm_resource' },
      });
  });

  it('retrying the identifier that was missing is not legitimate', () => {
    spec
      .given([notFound])
      .when(agent.requested(agent.retry(lookup)))
      .then({ violations: 1, lastViolation: expect.objectContaining({ kind: 'unresolved_identifier' }) });
  });

  it('a different identifier is', () => {
    spec
      .given([notFound])
      .when(agent.requested(agent.retry(lookup, { resourceId: 'payments-api' })))
      .then({ legitimateAttempts: 1, violations: 0 });
  });

  it('a resolution verifier names the identifier to use', () => {
    const resolved = agent.verified(lookup, 'resource_resolution', 'confirmed', { resolvedResourceId: 'payments-api' });
    spec
      .given([notFound])
      .when(resolved)
      .then({
        verifierStatus: 'passed',
        resolvedResourceId: 'payments-api',
        decision: { nextAction: 'proceed', safetyJustification: expect.stringContaining('payments-api') },
      });
  });

  it('an operator confirming the resource ends the episode: even the old identifier may be tried', () => {
    const confirmed = new SpecOperator(timeline, 'acme', 'carol').resolves(
      keyId,
      'resource_confirmed',
      'it exists, the API lagged',
    );
    spec.given([notFound]).when(confirmed).then({ status: 'resolved', finding: 'resource_confirmed' });
    spec.given([notFound, confirmed]).whenPreflight('acme', agent.retry(lookup), timeline.now()).thenAllowed();
  });

  it('the retry missing too spends the budget', () => {
    const retry = agent.retry(lookup, { resourceId: 'payments-api-v2' });
    spec
      .given([notFound, agent.requested(retry)])
      .when(agent.failed(retry, { httpStatus: 404 }))
      .then({
        status: 'exhausted',
        missingResourceIds: ['payment-api', 'payments-api-v2'],
        decision: { level: 'block' },
      });
  });
});

describe('invariant_violation: fail closed and page', () => {
  it('pages a human, fleet-wide for the principal', () => {
    const transfer = agent.call('ledger_transfer', {
      effect: 'write',
      resourceId: 'ledger-7',
      resourceClass: 'ledger',
    });
    spec
      .given([])
      .when(
        agent.failed(transfer, {
          httpStatus: 409,
          message: 'balance would go negative',
          classHint: 'invariant_violation',
        }),
      )
      .then({
        key: { scope: 'fleet' },
        status: 'blocked',
        budget: 0,
        decision: { level: 'page', nextAction: 'fail_closed_page_human' },
      });
  });
});

describe('episodes', () => {
  it('a failure after a resolution starts over with fresh counters and a higher episode number', () => {
    const call = agent.call('get_deployment', { resourceId: 'x' });
    const retry = agent.retry(call);
    const events = [agent.failed(call, { httpStatus: 503 }), agent.requested(retry), agent.succeeded(retry)];
    const resolved = [...governance.replay(events).states.values()][0]!;
    expect(resolved).toMatchObject({ status: 'resolved', retryCount: 1, episode: 1 });
    const next = agent.call('get_deployment', { resourceId: 'x' });
    spec
      .given(events)
      .when(agent.failed(next, { httpStatus: 503 }))
      .then({ episode: 2, retryCount: 0, status: 'open', version: resolved.version + 1, seenCallIds: [next.callId] });
  });

  it('a success on a key that is not open changes nothing', () => {
    const call = agent.call('get_deployment', { resourceId: 'y' });
    const events = [agent.failed(call, { httpStatus: 503 }), agent.succeeded(agent.retry(call))];
    spec
      .given(events)
      .when(agent.succeeded(agent.call('get_deployment')))
      .thenNothingChanged();
  });
});

describe('events of other runs folded out of order (other partitions)', () => {
  const fleetTimeline = new Timeline('2025-03-02T09:00:00.000Z', 10);
  const reader = new SpecAgent(fleetTimeline, 'acme', 'report-bot', 'run-r', {
    resourceClass: 'api_endpoint',
    principal: 'svc-reports',
    effect: 'read',
  });
  const other = new SpecAgent(fleetTimeline, 'acme', 'audit-bot', 'run-o', {
    resourceClass: 'api_endpoint',
    principal: 'svc-reports',
    effect: 'read',
  });

  it('a success that happened before the failure opened the key does not resolve it, nor counts as an attempt', () => {
    const read = reader.call('read_report', { resourceId: 'salaries' });
    const earlierRequest = reader.requested(read);
    const earlierSuccess = reader.succeeded(read);
    const denied = other.failed(other.call('read_report', { resourceId: 'salaries' }), { httpStatus: 403 });
    spec.given([denied, earlierRequest]).when(earlierSuccess).thenNothingChanged();
    const [state] = [...governance.replay([denied, earlierRequest, earlierSuccess]).states.values()];
    expect(state).toMatchObject({ failureClass: 'permission', status: 'blocked', violations: 0, retryCount: 0 });
  });

  it('a success that happened after it still counts (and resolves, as any later success does)', () => {
    const denied = other.failed(other.call('read_report', { resourceId: 'ledger' }), { httpStatus: 403 });
    const read = reader.call('read_report', { resourceId: 'ledger' });
    spec
      .given([denied, reader.requested(read)])
      .when(reader.succeeded(read))
      .then({ status: 'resolved', violations: 1, lastViolation: expect.objectContaining({ kind: 'ignored_block' }) });
  });

  it('a failure that happened before still lands: it is one more failure, never fewer', () => {
    const read = reader.call('read_report', { resourceId: 'payroll' });
    const earlierDenied = reader.failed(read, { httpStatus: 403 });
    const denied = other.failed(other.call('read_report', { resourceId: 'payroll' }), { httpStatus: 403 });
    spec.given([denied]).when(earlierDenied).then({ status: 'blocked', failures: 2, violations: 0 });
  });

  it('at a run key an earlier time changes nothing: one run is folded in its own order (a clock stepped back)', () => {
    const writer = new SpecAgent(fleetTimeline, 'acme', 'billing-bot', 'run-w', {
      resourceClass: 'api_endpoint',
      effect: 'write',
    });
    const create = writer.call('create_invoice', { resourceId: 'inv', httpMethod: 'POST' });
    const resent = writer.requested(writer.retry(create));
    const timedOut = writer.unknown(create, { errno: 'ETIMEDOUT' }, { requestSent: true, responseReceived: false });
    spec
      .given([writer.requested(create), timedOut])
      .when(resent)
      .then({ failureClass: 'ambiguous_effect', retryCount: 1, violations: 1 });
  });
});
