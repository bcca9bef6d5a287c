import { VERIFIER_FINDINGS, VERIFIER_KINDS } from '@tokencircuit/contracts';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config/load-config.js';
import { SpecAgent, Timeline } from '@tokencircuit/contracts/testing';
import { governanceSpec } from '../testing/spec.js';

/**
 * verifier.result v2: for every class, what each finding grants. `confirmed` / `refuted` answer the
 * key's open question and grant what the RFC's "Verifier Required" column grants for that answer;
 * `inconclusive` grants nothing (and takes back nothing a conclusive finding granted). A v1 event says
 * the same thing through the edge's v1 → v2 mapping.
 */
describe('verifier findings, class by class', () => {
  const spec = governanceSpec();

  describe('transient (same_verifier: "the failed check now passes")', () => {
    const timeline = new Timeline();
    const agent = new SpecAgent(timeline, 'acme', 'sync-bot', 'run-t', { resourceClass: 'api_endpoint' });
    const sync = agent.call('sync_orders');
    const unavailable = agent.failed(sync, { httpStatus: 503 });

    it('given a 503, when the same verifier confirms, then the key is resolved and nothing more is said', () => {
      spec
        .given([unavailable])
        .when(agent.verified(sync, 'same_verifier', 'confirmed'))
        .then({
          status: 'resolved',
          verifierStatus: 'passed',
          finding: 'same_verifier_passed',
          decision: { intervene: false, nextAction: 'proceed' },
        });
    });

    it('given a 503, when the same verifier refutes, then the failure persists: the budget and backoff still govern', () => {
      spec
        .given([unavailable])
        .when(agent.verified(sync, 'same_verifier', 'refuted'))
        .then({
          status: 'open',
          verifierStatus: 'failed',
          finding: 'same_verifier_failed',
          legitimateAttempts: 0,
          decision: { level: 'advise', nextAction: 'retry_with_backoff' },
        });
    });

    it('given a 503, when the same verifier is inconclusive, then nothing is granted', () => {
      spec
        .given([unavailable])
        .when(agent.verified(sync, 'same_verifier', 'inconclusive'))
        .then({ status: 'open', verifierStatus: 'failed', finding: 'inconclusive', legitimateAttempts: 0 });
    });
  });

  describe('validation (no verifier: "args structurally changed" is judged on the next call)', () => {
    const timeline = new Timeline();
    const agent = new SpecAgent(timeline, 'acme', 'report-bot', 'run-v', { resourceClass: 'api_endpoint' });
    const report = agent.call('build_report', { arguments: { from: '2025-13-01' } });
    const rejected = agent.failed(report, { httpStatus: 422, message: 'from: month must be 1-12' });

    it.each(VERIFIER_KINDS.flatMap((kind) => VERIFIER_FINDINGS.map((finding) => [kind, finding] as const)))(
      'given a 422, when a %s verifier says %s, then nothing changes',
      (kind, finding) => {
        spec
          .given([rejected])
          .when(agent.verified(report, kind, finding))
          .thenNothingChanged();
      },
    );
  });

  describe('missing_resource (resource_resolution: "the identifier resolves")', () => {
    const timeline = new Timeline();
    const agent = new SpecAgent(timeline, 'acme', 'crm-bot', 'run-m', {
      resourceClass: 'api_endpoint',
      resourceId: 'customers/c-41',
      effect: 'read',
      httpMethod: 'GET',
    });
    const lookup = agent.call('get_customer', { arguments: { id: 'c-41' } });
    const notFound = agent.failed(lookup, { httpStatus: 404, message: 'customer not found' });
    const blind = agent.retry(lookup);
    const confirmed = agent.verified(lookup, 'resource_resolution', 'confirmed', {
      resolvedResourceId: 'customers/c-14',
    });
    const refuted = agent.verified(lookup, 'resource_resolution', 'refuted');
    const inconclusive = agent.verified(lookup, 'resource_resolution', 'inconclusive');
    const resolvedRetry = agent.retry(lookup, { resourceId: 'customers/c-14', arguments: { id: 'c-14' } });

    it('given a 404 and a blind retry, when resolution confirms, then the violation is history and the resolved id may be tried', () => {
      spec
        .given([notFound, agent.requested(blind)])
        .when(confirmed)
        .then({
          verifierStatus: 'passed',
          finding: 'resource_resolved',
          resolvedResourceId: 'customers/c-14',
          lastViolation: expect.objectContaining({ kind: 'unresolved_identifier', legitimisedBy: confirmed.id }),
          decision: { level: 'advise', nextAction: 'proceed' },
        });
      spec
        .given([notFound, agent.requested(blind), confirmed])
        .whenPreflight('acme', resolvedRetry, timeline.now())
        .thenAllowed();
    });

    it('given a 404 and a blind retry, when resolution refutes, then nothing is granted: the violation stands, the same id stays refused', () => {
      spec
        .given([notFound, agent.requested(blind)])
        .when(refuted)
        .then({
          verifierStatus: 'failed',
          finding: 'resource_unresolved',
          resolvedResourceId: null,
          lastViolation: expect.not.objectContaining({ legitimisedBy: expect.anything() }),
          decision: {
            level: 'block',
            nextAction: 'discover_or_confirm_resource',
            safetyJustification: expect.stringContaining('unresolved identifier'),
          },
        });
      spec
        .given([notFound, refuted])
        .whenPreflight('acme', agent.retry(lookup), timeline.now())
        .thenDenied({
          reason: /did not find the resource run \S+ named at .*: resolve the identifier before retrying/,
          decision: { level: 'block' },
        });
      spec
        .given([notFound])
        .when(refuted)
        .then({
          finding: 'resource_unresolved',
          decision: { level: 'advise', safetyJustification: expect.stringContaining('refuted the identifier') },
        });
    });

    it('given a 404, when resolution is inconclusive, then nothing is granted', () => {
      spec
        .given([notFound])
        .when(inconclusive)
        .then({
          verifierStatus: 'failed',
          finding: 'inconclusive',
          decision: { nextAction: 'discover_or_confirm_resource' },
        });
      spec
        .given([notFound, inconclusive])
        .whenPreflight('acme', agent.retry(lookup), timeline.now())
        .thenDenied({
          reason: /did not find the resource run \S+ named at .*: resolve the identifier before retrying/,
        });
    });

    it('given a confirmed resolution, when a later one is inconclusive, then the grant stands', () => {
      spec.given([notFound, confirmed]).when(inconclusive).thenNothingChanged();
    });
  });

  describe('ambiguous_effect, uncertain write (read_after_write: "the write took effect")', () => {
    const timeline = new Timeline();
    const agent = new SpecAgent(timeline, 'acme', 'billing-bot', 'run-a', {
      resourceClass: 'api_endpoint',
      effect: 'write',
      httpMethod: 'POST',
    });
    const create = agent.call('create_invoice', { arguments: { customer: 'c-42', amount: 1200 } });
    const timedOut = agent.unknown(create, { errno: 'ETIMEDOUT' }, { requestSent: true, responseReceived: false });
    const again = agent.retry(create);
    const blindWrite = agent.requested(again);

    it('given an unreconciled blind write, when read-after-write confirms, then the key resolves and a repeat stays refused', () => {
      const confirmed = agent.verified(create, 'read_after_write', 'confirmed');
      spec
        .given([timedOut, blindWrite])
        .when(confirmed)
        .then({ status: 'resolved', finding: 'effect_applied', decision: { nextAction: 'proceed' } });
      spec
        .given([timedOut, blindWrite, confirmed])
        .whenPreflight('acme', agent.retry(again), timeline.now())
        .thenDenied({
          reason:
            /already took effect \(read-after-write confirmed it\): sending it again would duplicate the side effect/,
          decision: { level: 'block' },
        });
    });

    it('given an unreconciled blind write, when read-after-write refutes, then the +1 retry is granted', () => {
      const refuted = agent.verified(create, 'read_after_write', 'refuted');
      spec
        .given([timedOut, blindWrite])
        .when(refuted)
        .then({
          status: 'open',
          verifierStatus: 'passed',
          finding: 'effect_not_applied',
          lastViolation: expect.objectContaining({ legitimisedBy: refuted.id }),
          decision: { level: 'advise', nextAction: 'retry_with_backoff' },
        });
    });

    it('given an unreconciled blind write, when read-after-write is inconclusive, then nothing is granted: still a page, still refused', () => {
      const inconclusive = agent.verified(create, 'read_after_write', 'inconclusive');
      spec
        .given([timedOut, blindWrite])
        .when(inconclusive)
        .then({
          status: 'awaiting_verification',
          verifierStatus: 'failed',
          finding: 'inconclusive',
          lastViolation: expect.not.objectContaining({ legitimisedBy: expect.anything() }),
          decision: { level: 'page', nextAction: 'reconcile_before_retry' },
        });
      spec
        .given([timedOut, inconclusive])
        .whenPreflight('acme', agent.retry(again), timeline.advance(600_000).now())
        .thenDenied({
          reason: /may have taken effect: reconcile it with a read-after-write before writing again/,
          decision: { level: 'page' },
        });
    });

    it('given a refuted write, when a later read-after-write is inconclusive, then the grant stands', () => {
      const refuted = agent.verified(create, 'read_after_write', 'refuted');
      spec
        .given([timedOut, refuted])
        .when(agent.verified(create, 'read_after_write', 'inconclusive'))
        .thenNothingChanged();
    });
  });

  describe('ambiguous_effect, empty result (empty_result: "the empty result is valid")', () => {
    const timeline = new Timeline();
    const agent = new SpecAgent(timeline, 'acme', 'support-bot', 'run-e', {
      resourceClass: 'sql_namespace',
      resourceId: 'crm.tickets',
      effect: 'read',
    });
    const query = agent.call('sql_query', { arguments: { sql: "SELECT * FROM crm.tickets WHERE status = 'opne'" } });
    const empty = agent.succeeded(query, { empty: true, rowCount: 0 });
    const rerun = agent.retry(query);

    it('given an empty result, when the verifier confirms, then the empty result is the answer', () => {
      spec
        .given([empty])
        .when(agent.verified(query, 'empty_result', 'confirmed'))
        .then({ status: 'resolved', finding: 'empty_valid', decision: { intervene: false } });
    });

    it('given an empty result, when the verifier refutes (cause not named), then it is a wrong query: validation', () => {
      spec
        .given([empty])
        .when(agent.verified(query, 'empty_result', 'refuted'))
        .then({
          failureClass: 'validation',
          finding: 'empty_invalid',
          classificationReason: 'empty_result_unverified>verifier:empty_result:refuted:wrong_query',
        });
    });

    it('given an empty result, when the verifier refutes with an absent target, then it is missing_resource', () => {
      spec
        .given([empty])
        .when(agent.verified(query, 'empty_result', 'refuted', { emptyCause: 'target_absent' }))
        .then({ failureClass: 'missing_resource', verifierRequired: 'resource_resolution', verifierStatus: 'pending' });
    });

    it('given a different query tried meanwhile, when the refutation moves the key to a smaller budget, then it is spent, not overdrawn', () => {
      const strict = governanceSpec(loadConfig({ classes: { validation: { budget: 0 } } }));
      const other = agent.call('sql_query', { arguments: { sql: "SELECT * FROM crm.tickets WHERE status = 'open'" } });
      strict
        .given([empty, agent.succeeded(other, { rowCount: 4 })])
        .when(agent.verified(query, 'empty_result', 'refuted'))
        .then({
          failureClass: 'validation',
          budget: 0,
          legitimateAttempts: 0,
          status: 'exhausted',
          decision: { level: 'block', nextAction: 'forced_summary' },
        });
    });

    it('given an empty result, when the verifier is inconclusive, then nothing is granted: an identical re-run is a block', () => {
      const inconclusive = agent.verified(query, 'empty_result', 'inconclusive');
      spec
        .given([empty])
        .when(inconclusive)
        .then({
          failureClass: 'ambiguous_effect',
          status: 'awaiting_verification',
          verifierStatus: 'failed',
          finding: 'inconclusive',
          decision: { level: 'block', nextAction: 'verify_empty_result' },
        });
      spec
        .given([empty, inconclusive])
        .whenPreflight('acme', rerun, timeline.now())
        .thenDenied({
          reason:
            /returned an empty result to run \S+ at \S+ that no verifier has judged: verify it before repeating the same read/,
          decision: { level: 'block' },
        });
    });
  });

  describe('permission and invariant_violation (no verifier: budget 0)', () => {
    const timeline = new Timeline();
    const agent = new SpecAgent(timeline, 'acme', 'analyst', 'run-p', {
      resourceClass: 'sql_namespace',
      resourceId: 'finance.salaries',
      principal: 'svc-analyst',
    });
    const query = agent.call('sql_query', { arguments: { sql: 'SELECT * FROM finance.salaries' } });
    const denied = agent.failed(query, { sqlState: '42501' });
    const broken = agent.failed(query, { sqlState: '23505', classHint: 'invariant_violation' });

    it.each(VERIFIER_KINDS.flatMap((kind) => VERIFIER_FINDINGS.map((finding) => [kind, finding] as const)))(
      'given a denial or a broken invariant, when a %s verifier says %s, then nothing changes',
      (kind, finding) => {
        spec
          .given([denied])
          .when(agent.verified(query, kind, finding))
          .thenNothingChanged();
        spec
          .given([broken])
          .when(agent.verified(query, kind, finding))
          .thenNothingChanged();
      },
    );
  });

  describe('a verifier of another kind than the key waits for changes nothing, whatever its finding', () => {
    const timeline = new Timeline();
    const agent = new SpecAgent(timeline, 'acme', 'billing-bot', 'run-x', {
      resourceClass: 'api_endpoint',
      effect: 'write',
      httpMethod: 'POST',
    });
    const create = agent.call('create_invoice', { arguments: { customer: 'c-1' } });
    const timedOut = agent.unknown(create, { errno: 'ETIMEDOUT' }, { requestSent: true, responseReceived: false });
    it.each(VERIFIER_FINDINGS)('%s', (finding) => {
      for (const kind of VERIFIER_KINDS.filter((k) => k !== 'read_after_write')) {
        spec
          .given([timedOut])
          .when(agent.verified(create, kind, finding))
          .thenNothingChanged();
      }
    });
  });

  describe('a v1 verifier event grants what its v2 finding grants', () => {
    const timeline = new Timeline();
    const agent = new SpecAgent(timeline, 'acme', 'billing-bot', 'run-1', {
      resourceClass: 'api_endpoint',
      effect: 'write',
      httpMethod: 'POST',
    });
    const create = agent.call('create_invoice', { arguments: { customer: 'c-5' } });
    const timedOut = agent.unknown(create, { errno: 'ETIMEDOUT' }, { requestSent: true, responseReceived: false });

    it.each([
      [{ passed: true, effectApplied: true }, 'confirmed'],
      [{ passed: true, effectApplied: false }, 'refuted'],
      [{ passed: false, effectApplied: true }, 'inconclusive'],
      [{ passed: true }, 'inconclusive'],
    ] as const)('%j is %s', ({ passed, ...resolved }, finding) => {
      const v1 = agent.verifiedV1(create, 'read_after_write', passed, resolved);
      const v2 = agent.verified(create, 'read_after_write', finding);
      // The core never sees v1: the edge hands it the very data a v2 producer would have sent.
      expect(v1.data).toEqual(v2.data);
      const [afterV1] = [...spec.given([timedOut, v1]).states().values()];
      const [afterV2] = [...spec.given([timedOut, v2]).states().values()];
      const { causingEventIds: _a, updatedAt: _b, version: _c, ...fromV1 } = afterV1!;
      const { causingEventIds: _d, updatedAt: _e, version: _f, ...fromV2 } = afterV2!;
      expect({ ...fromV1, lastViolation: null }).toEqual({ ...fromV2, lastViolation: null });
    });
  });
});
