import { describe, expect, it } from 'vitest';
import { SpecAgent, SpecOperator, Timeline } from '@tokencircuit/contracts/testing';
import { governanceSpec } from '../testing/spec.js';

/**
 * Every class's verifier requirement (the RFC's "Verifier Required" column, VERIFIER_RULES), alike
 * in evolve, decide and preflight: an attempt that breaks it is a block (a page for an unreconciled
 * write) naming the violation, preflight refuses it at the same level before it runs, and a
 * verifier's grant that arrives after it still grants what the RFC grants.
 */
describe('verifier requirements, enforced alike for every class', () => {
  const spec = governanceSpec();

  describe('missing_resource: only a resolved identifier may be retried', () => {
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
    const blindFailed = agent.failed(blind, { httpStatus: 404, message: 'customer not found' });
    const resolved = agent.verified(lookup, 'resource_resolution', 'confirmed', {
      resolvedResourceId: 'customers/c-14',
    });
    const verifiedRetry = agent.retry(lookup, { resourceId: 'customers/c-14', arguments: { id: 'c-14' } });

    it('a retry with the same unresolved identifier is a block naming the violation, in decide and in preflight', () => {
      spec
        .given([notFound])
        .when(agent.requested(blind))
        .then({
          failureClass: 'missing_resource',
          violations: 1,
          lastViolation: expect.objectContaining({ kind: 'unresolved_identifier' }),
          decision: {
            level: 'block',
            nextAction: 'discover_or_confirm_resource',
            safetyJustification: expect.stringContaining('unresolved identifier'),
          },
        });
      spec
        .given([notFound])
        .whenPreflight('acme', blind, timeline.now())
        .thenDenied({
          reason: /did not find the resource run \S+ named at .*: resolve the identifier before retrying \[key run\|/,
          decision: { level: 'block' },
        });
    });

    it('the blind attempt does not use up the retry a later resource-resolution verifier grants', () => {
      spec
        .given([notFound, agent.requested(blind)])
        .when(blindFailed)
        .then({ status: 'open', legitimateAttempts: 0, retryCount: 1, decision: { level: 'block' } });
      spec
        .given([notFound, agent.requested(blind), blindFailed])
        .when(resolved)
        .then({
          status: 'open',
          verifierStatus: 'passed',
          resolvedResourceId: 'customers/c-14',
          lastViolation: expect.objectContaining({ kind: 'unresolved_identifier', legitimisedBy: resolved.id }),
          decision: { level: 'advise', nextAction: 'proceed' },
        });
      const history = [notFound, agent.requested(blind), blindFailed, resolved];
      spec.given(history).whenPreflight('acme', verifiedRetry, timeline.now()).thenAllowed();
      spec
        .given(history)
        .when(agent.requested(verifiedRetry))
        .then({ legitimateAttempts: 1, violations: 1, decision: { level: 'advise' }, needsDecision: false });
      spec
        .given([...history, agent.requested(verifiedRetry)])
        .when(agent.succeeded(verifiedRetry))
        .then({ status: 'resolved' });
    });

    it('the blind attempt failing after the resolution does not erase it', () => {
      spec
        .given([notFound, agent.requested(blind), resolved])
        .when(blindFailed)
        .then({ status: 'open', verifierStatus: 'passed', resolvedResourceId: 'customers/c-14' });
    });

    it('an operator confirming the resource legitimises the next attempt too', () => {
      const oncall = new SpecOperator(timeline, 'acme', 'ops@acme');
      const keyId = spec.given([notFound]).states().keys().next().value!;
      spec
        .given([notFound, agent.requested(blind), blindFailed])
        .when(oncall.resolves(keyId, 'resource_confirmed', 'c-41 exists, replica lag'))
        .then({
          finding: 'resource_confirmed',
          lastViolation: expect.objectContaining({ legitimisedBy: expect.any(String) }),
          decision: { level: 'advise' },
        });
    });
  });

  describe('validation: only structurally changed arguments count', () => {
    const timeline = new Timeline();
    const agent = new SpecAgent(timeline, 'acme', 'report-bot', 'run-v', { resourceClass: 'api_endpoint' });
    const report = agent.call('build_report', { arguments: { from: '2025-13-01' } });
    const rejected = agent.failed(report, { httpStatus: 422, message: 'from: month must be 1-12' });
    const same = agent.retry(report, { arguments: { from: '2025-13-01' } });
    const repaired = agent.retry(report, { arguments: { from: '2025-12-01' } });

    it('identical arguments are a block, and the repair attempt the RFC grants is still there afterwards', () => {
      spec
        .given([rejected])
        .when(agent.requested(same))
        .then({
          lastViolation: expect.objectContaining({ kind: 'identical_arguments' }),
          decision: { level: 'block', nextAction: 'correct_arguments' },
        });
      spec
        .given([rejected])
        .whenPreflight('acme', same, timeline.now())
        .thenDenied({
          reason: /already sent these exact arguments to \S+ .*: only structurally different arguments may be tried/,
          decision: { level: 'block', nextAction: 'correct_arguments' },
        });
      const after = [rejected, agent.requested(same), agent.failed(same, { httpStatus: 422 })];
      spec.given(after).whenPreflight('acme', repaired, timeline.now()).thenAllowed();
      spec
        .given(after)
        .when(agent.requested(repaired))
        .then({ legitimateAttempts: 1, decision: { level: 'advise', nextAction: 'correct_arguments' } });
    });
  });

  describe('ambiguous_effect: nothing may be written again before the effect is reconciled', () => {
    const timeline = new Timeline();
    const agent = new SpecAgent(timeline, 'acme', 'billing-bot', 'run-a', {
      resourceClass: 'api_endpoint',
      effect: 'write',
      httpMethod: 'POST',
    });
    const create = agent.call('create_invoice', { arguments: { customer: 'c-42', amount: 1200 } });
    const timedOut = agent.unknown(create, { errno: 'ETIMEDOUT' }, { requestSent: true, responseReceived: false });
    const again = agent.retry(create);
    const notApplied = agent.verified(create, 'read_after_write', 'refuted');

    it('an unreconciled write is a page, in decide and preflight; reconciliation then grants the retry', () => {
      spec
        .given([timedOut])
        .when(agent.requested(again))
        .then({
          lastViolation: expect.objectContaining({ kind: 'write_before_reconciliation' }),
          decision: { level: 'page', nextAction: 'reconcile_before_retry' },
        });
      spec
        .given([timedOut])
        .whenPreflight('acme', again, timeline.now())
        .thenDenied({
          reason:
            /^run \S+'s write to \S+ on .* may have taken effect: reconcile it with a read-after-write before writing again \[key /,
          decision: { level: 'page' },
        });
      spec
        .given([timedOut, agent.requested(again)])
        .when(notApplied)
        .then({
          status: 'open',
          lastViolation: expect.objectContaining({ legitimisedBy: notApplied.id }),
          decision: { level: 'advise', nextAction: 'retry_with_backoff' },
        });
    });
  });

  describe("empty results: the verifier's finding reclassifies the key", () => {
    const timeline = new Timeline();
    const agent = new SpecAgent(timeline, 'acme', 'support-bot', 'run-e', {
      resourceClass: 'sql_namespace',
      resourceId: 'crm.tickets',
      effect: 'read',
    });
    const query = agent.call('sql_query', { arguments: { sql: "SELECT * FROM crm.tickets WHERE status = 'opne'" } });
    const empty = agent.succeeded(query, { empty: true, rowCount: 0 });
    const wrongQuery = agent.verified(query, 'empty_result', 'refuted', { emptyCause: 'wrong_query' });
    const absent = agent.verified(query, 'empty_result', 'refuted', { emptyCause: 'target_absent' });
    const rerun = agent.retry(query);

    it('a wrong query becomes validation, with the causal chain in the artifact, and an identical re-run is a block', () => {
      spec
        .given([empty])
        .when(wrongQuery)
        .then({
          failureClass: 'validation',
          status: 'open',
          finding: 'empty_invalid',
          classificationReason: 'empty_result_unverified>verifier:empty_result:refuted:wrong_query',
          decision: { level: 'advise', nextAction: 'correct_arguments' },
        });
      spec
        .given([empty, wrongQuery])
        .when(agent.requested(rerun))
        .then({
          lastViolation: expect.objectContaining({ kind: 'rejected_query_rerun' }),
          decision: { level: 'block', nextAction: 'correct_arguments' },
        });
      spec
        .given([empty, wrongQuery])
        .whenPreflight('acme', rerun, timeline.now())
        .thenDenied({
          reason: /the empty-result verifier judged the query run \S+ sent to \S+ on .* wrong: change the query/,
          decision: { level: 'block' },
        });
    });

    it('an absent target becomes missing_resource: only a resolved identifier may be retried', () => {
      spec
        .given([empty])
        .when(absent)
        .then({
          failureClass: 'missing_resource',
          verifierRequired: 'resource_resolution',
          classificationReason: 'empty_result_unverified>verifier:empty_result:refuted:target_absent',
          decision: { level: 'advise', nextAction: 'discover_or_confirm_resource' },
        });
      spec
        .given([empty, absent])
        .whenPreflight('acme', rerun, timeline.now())
        .thenDenied({
          reason: /did not find the resource run \S+ named at .*: resolve the identifier before retrying \[key run\|/,
          decision: { level: 'block' },
        });
    });

    it('a corrected query that comes back empty again waits for the verifier again', () => {
      const corrected = agent.retry(query, { arguments: { sql: "SELECT * FROM crm.tickets WHERE status = 'open'" } });
      spec
        .given([empty, wrongQuery, agent.requested(corrected)])
        .when(agent.succeeded(corrected, { empty: true, rowCount: 0 }))
        .then({ failureClass: 'ambiguous_effect', status: 'awaiting_verification', verifierRequired: 'empty_result' });
    });
  });

  describe('reconciliation reads open no key of their own', () => {
    it('an empty read-back of an uncertain write moves nothing and opens no intervention', () => {
      const timeline = new Timeline();
      const agent = new SpecAgent(timeline, 'acme', 'billing-bot', 'run-r', {
        resourceClass: 'api_endpoint',
        effect: 'write',
        httpMethod: 'POST',
      });
      const create = agent.call('create_invoice', { arguments: { customer: 'c-9' } });
      const timedOut = agent.unknown(create, { errno: 'ETIMEDOUT' }, { requestSent: true, responseReceived: false });
      const readBack = agent.call('create_invoice', {
        effect: 'read',
        httpMethod: 'GET',
        arguments: { customer: 'c-9' },
      });
      spec
        .given([timedOut])
        .when(agent.succeeded(readBack, { empty: true, rowCount: 0 }))
        .thenNothingChanged();
    });
  });

  describe('transient: same intent, after the server-imposed delay', () => {
    const timeline = new Timeline();
    const agent = new SpecAgent(timeline, 'acme', 'sync-bot', 'run-t', { resourceClass: 'api_endpoint' });
    const sync = agent.call('sync_orders');
    const throttled = agent.failed(sync, { httpStatus: 503, headers: { 'Retry-After': '120' } });
    const early = agent.retry(sync);

    it('Retry-After is honoured whatever the case of its name; a retry before it is a block', () => {
      spec
        .given([])
        .when(throttled)
        .then({ failureClass: 'transient', serverDelay: expect.objectContaining({ delayMs: 120_000 }) });
      spec
        .given([throttled])
        .whenPreflight('acme', early, timeline.now())
        .thenDenied({
          reason:
            /the server asked run \S+ not to retry \S+ on .* before \S+Z \((Retry-After|rate-limit reset)\), after 1 transient failure \[key /,
          decision: { level: 'block', nextAction: 'retry_with_backoff' },
        });
      spec
        .given([throttled])
        .when(agent.requested(early))
        .then({
          lastViolation: expect.objectContaining({ kind: 'before_server_delay' }),
          decision: { level: 'block', nextAction: 'retry_with_backoff' },
        });
    });
  });

  describe('permission and invariant_violation: budget 0, nothing legitimises an attempt', () => {
    const timeline = new Timeline();
    const agent = new SpecAgent(timeline, 'acme', 'analyst', 'run-p', {
      resourceClass: 'sql_namespace',
      resourceId: 'finance.salaries',
      principal: 'svc-analyst',
    });
    const query = agent.call('sql_query', { arguments: { sql: 'SELECT * FROM finance.salaries' } });
    const denied = agent.failed(query, { sqlState: '42501' });

    it('an attempt on the blocked key is a block in decide and preflight', () => {
      const other = agent.call('sql_query', { arguments: { sql: 'SELECT count(*) FROM finance.salaries' } });
      spec
        .given([denied])
        .when(agent.requested(other))
        .then({
          lastViolation: expect.objectContaining({ kind: 'ignored_block' }),
          decision: { level: 'block', nextAction: 'stop_request_authorization' },
        });
      spec
        .given([denied])
        .whenPreflight('acme', other, timeline.now())
        .thenDenied({
          reason:
            /^principal \S+ is blocked fleet-wide on .* since \S+Z, after 1 permission failure of sql_query .*no agent acting as \S+ may try until an operator resolves it \[key fleet\|/,
          decision: { level: 'block' },
        });
    });
  });

  describe('invariant_violation: budget 0, fail closed', () => {
    const timeline = new Timeline();
    const agent = new SpecAgent(timeline, 'acme', 'ledger-bot', 'run-i', {
      resourceClass: 'sql_namespace',
      resourceId: 'ledger.entries',
      principal: 'svc-ledger',
      effect: 'write',
    });
    const post = agent.call('post_entry', { arguments: { sql: 'INSERT INTO ledger.entries VALUES (1)' } });
    const broken = agent.failed(post, { sqlState: '23514', message: 'new row violates check constraint "balanced"' });

    it('an attempt on the broken invariant is an ignored block, a page in decide and preflight', () => {
      const other = agent.call('post_entry', { arguments: { sql: 'INSERT INTO ledger.entries VALUES (2)' } });
      spec
        .given([broken])
        .when(agent.requested(other))
        .then({
          failureClass: 'invariant_violation',
          lastViolation: expect.objectContaining({ kind: 'ignored_block' }),
          decision: {
            level: 'page',
            nextAction: 'fail_closed_page_human',
            safetyJustification: expect.stringContaining('ignored block'),
          },
        });
      spec
        .given([broken])
        .whenPreflight('acme', other, timeline.now())
        .thenDenied({
          reason:
            /^principal svc-ledger is blocked fleet-wide on sql_namespace ledger\.entries since \S+Z, after 1 invariant_violation failure of post_entry .*\[key fleet\|/,
          decision: { level: 'page', nextAction: 'fail_closed_page_human' },
        });
    });
  });

  describe('preflight denials are never below block', () => {
    it('a write repeating one read-after-write confirmed applied is denied at block, not advise', () => {
      const timeline = new Timeline();
      const agent = new SpecAgent(timeline, 'acme', 'billing-bot', 'run-d', {
        resourceClass: 'api_endpoint',
        effect: 'write',
        httpMethod: 'POST',
      });
      const create = agent.call('create_invoice', { arguments: { customer: 'c-7' } });
      const history = [
        agent.unknown(create, { errno: 'ETIMEDOUT' }, { requestSent: true, responseReceived: false }),
        agent.verified(create, 'read_after_write', 'confirmed'),
      ];
      spec
        .given(history)
        .whenPreflight('acme', agent.retry(create), timeline.now())
        .thenDenied({
          reason:
            /^run run-d's write of intent \S+ to create_invoice on api_endpoint .*already took effect \(read-after-write confirmed it\): sending it again would duplicate the side effect \[key run\|/,
          decision: { level: 'block', intervene: true },
        });
    });

    it('a retry inside its backoff window is denied at block', () => {
      const timeline = new Timeline();
      const agent = new SpecAgent(timeline, 'acme', 'sync-bot', 'run-b', { resourceClass: 'api_endpoint' });
      const sync = agent.call('sync_orders');
      spec
        .given([agent.failed(sync, { httpStatus: 503 })])
        .whenPreflight('acme', agent.retry(sync), timeline.now())
        .thenDenied({
          reason:
            /^run run-b is backing off sync_orders on api_endpoint .*until \S+Z, after 1 transient failure, the last at \S+Z \[key run\|/,
          decision: { level: 'block', nextAction: 'retry_with_backoff' },
        });
    });
  });
});
