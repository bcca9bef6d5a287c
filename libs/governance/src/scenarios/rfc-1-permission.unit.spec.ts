import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config/load-config.js';
import { SpecAgent, SpecOperator, Timeline } from '@tokencircuit/contracts/testing';
import { governanceSpec } from '../testing/spec.js';

/**
 * RFC test 1 — Permission/Auth: same principal, same restricted resource, several different
 * model-generated queries → budget 0 after the first classified failure. The denial is a fact about
 * the principal, so it is fleet-scoped: other agents and runs acting as that principal learn it.
 */
describe('RFC 1: permission — budget 0 after the first classified failure, fleet-wide', () => {
  const timeline = new Timeline();
  const restricted = {
    principal: 'svc-bot',
    resourceClass: 'sql_namespace',
    resourceId: 'finance.salaries',
    authScope: 'read:finance',
    effect: 'read',
  } as const;
  const analyst = new SpecAgent(timeline, 'acme', 'analyst', 'run-1', restricted);
  const reporter = new SpecAgent(timeline, 'acme', 'reporter', 'run-9', restricted);
  const oncall = new SpecOperator(timeline, 'acme', 'alice@acme');
  const spec = governanceSpec();

  const firstQuery = analyst.call('sql_query', { arguments: { sql: 'SELECT name, salary FROM finance.salaries' } });
  const denied = analyst.failed(firstQuery, { sqlState: '42501', message: 'permission denied for table salaries' });
  const keyId = 'fleet|acme|p=svc-bot|r=finance.salaries|sql_query|sql_namespace|read:finance|permission|seb=0';

  const rephrased = analyst.retry(firstQuery, { arguments: { sql: 'SELECT avg(salary) FROM finance.salaries' } });
  const rephrasedAgain = analyst.retry(rephrased, {
    arguments: { sql: 'WITH s AS (SELECT * FROM finance.salaries) SELECT count(*) FROM s' },
  });

  it('the first denial opens a fleet key with budget 0, blocked: stop and request authorization', () => {
    spec
      .given([])
      .when(denied)
      .then({
        keyId,
        key: { scope: 'fleet', run: null, principal: 'svc-bot', resourceId: 'finance.salaries' },
        failureClass: 'permission',
        budget: 0,
        retryCount: 0,
        status: 'blocked',
        needsDecision: true,
        decision: { intervene: true, level: 'block', nextAction: 'stop_request_authorization', backoff: null },
      });
  });

  it('a differently worded query by the same agent is no legitimate retry: it is a violation of the block', () => {
    spec
      .given([denied])
      .when(analyst.requested(rephrased))
      .then({
        keyId,
        status: 'blocked',
        retryCount: 1,
        legitimateAttempts: 0,
        violations: 1,
        lastViolation: expect.objectContaining({ kind: 'ignored_block', callId: rephrased.callId }),
        needsDecision: true,
      });
  });

  it('after several different queries the budget is still 0 and none of them counted as legitimate', () => {
    const states = spec
      .given([
        denied,
        analyst.requested(rephrased),
        analyst.failed(rephrased, { sqlState: '42501', message: 'permission denied for table salaries' }),
        analyst.requested(rephrasedAgain),
        analyst.failed(rephrasedAgain, { httpStatus: 403, message: 'forbidden' }),
      ])
      .states();
    expect([...states.values()]).toEqual([
      expect.objectContaining({
        keyId,
        budget: 0,
        retryCount: 2,
        legitimateAttempts: 0,
        violations: 2,
        status: 'blocked',
        failures: 3,
      }),
    ]);
    expect(states.get(keyId)!.lastReceipts).toHaveLength(3);
  });

  it('the requested event and the outcome of one call count it once', () => {
    const states = spec
      .given([denied, analyst.requested(rephrased), analyst.failed(rephrased, { sqlState: '42501' })])
      .states();
    expect(states.get(keyId)).toMatchObject({ retryCount: 1, seenCallIds: [firstQuery.callId, rephrased.callId] });
  });

  it('another agent in another run, same principal and resource, is denied at preflight before it tries', () => {
    const theirQuery = reporter.call('sql_query', {
      arguments: { sql: 'SELECT department, sum(salary) FROM finance.salaries GROUP BY 1' },
    });
    const answer = spec
      .given([denied])
      .whenPreflight('acme', theirQuery, timeline.now())
      .thenDenied({
        blocking: { keyId, failureClass: 'permission' },
        decision: { level: 'block', nextAction: 'stop_request_authorization' },
      });
    // What happened and where, for an agent that never saw the failure: nothing it "ignored".
    expect(answer.reason).toBe(
      `principal svc-bot is blocked fleet-wide on sql_namespace finance.salaries since ${answer.blocking!.openedAt}, after 1 permission failure of sql_query (auth scope read:finance): no agent acting as svc-bot may try until an operator resolves it [key ${keyId}]`,
    );
    expect(answer.decision!.safetyJustification).toMatch(
      /^.*This call would not be legitimate \(the key is blocked\)\./,
    );
  });

  it('a different principal, resource or tenant is not affected', () => {
    const otherPrincipal = new SpecAgent(timeline, 'acme', 'hr-bot', 'run-3', { ...restricted, principal: 'svc-hr' });
    const otherResource = new SpecAgent(timeline, 'acme', 'reporter', 'run-9', {
      ...restricted,
      resourceId: 'finance.ledger',
    });
    const otherTenant = new SpecAgent(timeline, 'globex', 'analyst', 'run-1', restricted);
    for (const agent of [otherPrincipal, otherResource, otherTenant]) {
      spec.given([denied]).whenPreflight(agent.tenant, agent.call('sql_query'), timeline.now()).thenAllowed();
    }
  });

  it('the same principal on the same resource through another tool is denied too (the fact is about access)', () => {
    spec
      .given([denied])
      .whenPreflight('acme', reporter.call('sql_export', { arguments: { table: 'finance.salaries' } }), timeline.now())
      .thenDenied({ blocking: { keyId } });
  });

  it('an operator granting access resolves the key; the next denial opens a fresh episode', () => {
    const granted = oncall.resolves(keyId, 'auth_granted', 'GRANT SELECT ON finance.salaries TO svc_bot');
    spec
      .given([denied])
      .when(granted)
      .then({ keyId, status: 'resolved', decision: { intervene: false } });
    const later = reporter.call('sql_query');
    spec
      .given([denied, granted])
      .when(reporter.failed(later, { httpStatus: 403 }))
      .then({ keyId, episode: 2, status: 'blocked', retryCount: 0, violations: 0 });
  });

  it('an unsafe override is refused unless the policy names the class, and then allows exactly one attempt', () => {
    const override = oncall.resolves(keyId, 'acknowledged', 'break-glass for quarter close', true);
    spec
      .given([denied])
      .when(override)
      .then({
        status: 'blocked',
        operator: expect.objectContaining({ unsafeOverride: 'refused' }),
        acknowledgedSituation: expect.any(String),
        decision: { safetyJustification: expect.stringMatching(/refused/) },
      });

    const audited = governanceSpec(
      loadConfig({
        unsafeOverride: { classes: ['permission'], approvedBy: 'ciso@acme', reason: 'quarter close', ticket: 'SEC-7' },
      }),
    );
    audited
      .given([denied])
      .when(override)
      .then({
        status: 'open',
        overrideGrants: 1,
        operator: expect.objectContaining({ unsafeOverride: 'applied' }),
        decision: {
          level: 'advise',
          safetyJustification: expect.stringMatching(/approved by ciso@acme, ticket SEC-7/),
        },
      });
    audited
      .given([denied, override])
      .when(analyst.requested(rephrased))
      .then({ retryCount: 1, legitimateAttempts: 1, violations: 0 });
    audited
      .given([denied, override, analyst.requested(rephrased), analyst.failed(rephrased, { httpStatus: 403 })])
      .when(analyst.requested(rephrasedAgain))
      .then({ status: 'blocked', retryCount: 2, legitimateAttempts: 1, violations: 1 });
  });
});
