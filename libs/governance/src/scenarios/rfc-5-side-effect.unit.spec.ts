import { describe, expect, it } from 'vitest';
import { SpecAgent, SpecOperator, Timeline } from '@tokencircuit/contracts/testing';
import { governanceSpec } from '../testing/spec.js';

/**
 * RFC test 5 — Side-Effect Uncertainty: the tool call may have created something, but it cannot
 * tell. Status is unknown rather than failed; a retry is blocked until read-after-write verification
 * reconciles the effect, because retrying first is exactly the duplicate-side-effect bug.
 */
describe('RFC 5: side-effect uncertainty — unknown is not failed; no retry before read-after-write', () => {
  const timeline = new Timeline();
  const billing = {
    resourceClass: 'api_endpoint',
    authScope: 'invoices:write',
    effect: 'write',
    httpMethod: 'POST',
  } as const;
  const agent = new SpecAgent(timeline, 'acme', 'billing-bot', 'run-5', billing);
  const oncall = new SpecOperator(timeline, 'acme', 'bob@acme');
  const spec = governanceSpec();
  const keyId = 'run|acme|run=run-5|create_invoice|api_endpoint|invoices:write|ambiguous_effect|seb=1';

  const create = agent.call('create_invoice', { arguments: { customer: 'c-42', amount: 1200 } });
  const timedOut = agent.unknown(
    create,
    { errno: 'ETIMEDOUT', message: 'socket timeout after 30000 ms' },
    { requestSent: true, responseReceived: false },
  );
  const readBack = agent.call('create_invoice', { effect: 'read', httpMethod: 'GET', arguments: { customer: 'c-42' } });
  const writeAgain = agent.retry(create);

  it('a POST that timed out after dispatch is ambiguous_effect with the side-effect boundary crossed', () => {
    spec
      .given([])
      .when(timedOut)
      .then({
        keyId,
        failureClass: 'ambiguous_effect',
        key: { equivalenceKey: expect.objectContaining({ side_effect_boundary: true }) },
        status: 'awaiting_verification',
        verifierRequired: 'read_after_write',
        sideEffectEvidence: expect.arrayContaining([expect.any(String)]),
        decision: { level: 'block', nextAction: 'reconcile_before_retry' },
      });
  });

  it('preflight blocks the write retry but lets the read-back through: reads are how reconciliation happens', () => {
    spec
      .given([timedOut])
      .whenPreflight('acme', writeAgain, timeline.now())
      .thenDenied({
        reason:
          /'s write to create_invoice on .* may have taken effect: reconcile it with a read-after-write before writing again/,
      });
    spec.given([timedOut]).whenPreflight('acme', readBack, timeline.now()).thenAllowed();
  });

  it('the read-back itself does not spend the budget', () => {
    spec.given([timedOut]).when(agent.requested(readBack)).thenNothingChanged();
  });

  it('retrying the write before reconciliation is the duplicate-side-effect bug: page a human', () => {
    spec
      .given([timedOut])
      .when(agent.requested(writeAgain))
      .then({
        keyId,
        violations: 1,
        lastViolation: expect.objectContaining({ kind: 'write_before_reconciliation' }),
        status: 'awaiting_verification',
        decision: { level: 'page', nextAction: 'reconcile_before_retry' },
      });
  });

  it('verification finds the invoice was created: proceed with it and never retry', () => {
    const applied = agent.verified(create, 'read_after_write', 'confirmed');
    spec
      .given([timedOut])
      .when(applied)
      .then({
        keyId,
        status: 'resolved',
        finding: 'effect_applied',
        decision: { intervene: true, level: 'advise', nextAction: 'proceed' },
      });
    spec
      .given([timedOut, applied])
      .whenPreflight('acme', writeAgain, timeline.now())
      .thenDenied({
        reason:
          /already took effect \(read-after-write confirmed it\): sending it again would duplicate the side effect/,
      });
  });

  it('verification finds nothing was created: exactly one retry is allowed, a second is not', () => {
    const notApplied = agent.verified(create, 'read_after_write', 'refuted');
    spec
      .given([timedOut])
      .when(notApplied)
      .then({
        keyId,
        status: 'open',
        finding: 'effect_not_applied',
        decision: {
          level: 'advise',
          nextAction: 'retry_with_backoff',
          backoff: expect.objectContaining({ source: expect.any(String) }),
        },
      });
    const later = timeline.advance(60_000);
    spec.given([timedOut, notApplied]).whenPreflight('acme', writeAgain, later.now()).thenAllowed();
    spec
      .given([timedOut, notApplied])
      .when(agent.requested(writeAgain))
      .then({ keyId, retryCount: 1, legitimateAttempts: 1, violations: 0 });
    const thirdWrite = agent.retry(writeAgain);
    spec
      .given([timedOut, notApplied, agent.requested(writeAgain)])
      .whenPreflight('acme', thirdWrite, timeline.advance(60_000).now())
      .thenDenied({
        reason: /has spent its retry budget \(1\) for \S+ on .*: \d+ \w+ failures? since \S+Z, the last at \S+Z \[key /,
      });
  });

  it('the one retry timing out again is unknown again: back to awaiting, and no budget left after', () => {
    const notApplied = agent.verified(create, 'read_after_write', 'refuted');
    const again = agent.unknown(writeAgain, { errno: 'ETIMEDOUT' }, { requestSent: true, responseReceived: false });
    spec
      .given([timedOut, notApplied, agent.requested(writeAgain)])
      .when(again)
      .then({ keyId, status: 'awaiting_verification', verifierStatus: 'pending', retryCount: 1 });
    spec
      .given([timedOut, notApplied, agent.requested(writeAgain), again])
      .when(agent.verified(writeAgain, 'read_after_write', 'refuted'))
      .then({ keyId, status: 'exhausted', decision: { nextAction: 'forced_summary' } });
  });

  it('verification that cannot tell leaves the status unknown and pages; an acknowledgement stops the paging', () => {
    const inconclusive = agent.verified(create, 'read_after_write', 'inconclusive');
    spec
      .given([timedOut])
      .when(inconclusive)
      .then({ keyId, status: 'awaiting_verification', verifierStatus: 'failed', decision: { level: 'page' } });
    const ack = oncall.resolves(keyId, 'acknowledged', 'checking the billing provider by hand');
    const [acked] = spec
      .given([timedOut, inconclusive])
      .when(ack)
      // needsDecision: the acknowledgement is an episode step for the people on call (no intervention).
      .then({ keyId, needsDecision: true, decision: { level: 'block' } }).changed;
    expect(acked!.operator).toMatchObject({ by: 'bob@acme', resolution: 'acknowledged' });
  });

  it('no duplicate write: across every path above, at most one legitimate write retry happened', () => {
    const notApplied = agent.verified(create, 'read_after_write', 'refuted');
    const states = spec
      .given([
        timedOut,
        agent.requested(readBack),
        notApplied,
        agent.requested(writeAgain),
        agent.requested(agent.retry(writeAgain)),
      ])
      .states();
    expect(states.get(keyId)).toMatchObject({
      legitimateAttempts: 1,
      violations: 1,
      lastViolation: expect.objectContaining({ kind: 'over_budget' }),
    });
  });
});
