import { describe, expect, it } from 'vitest';
import { SpecAgent, Timeline } from '@tokencircuit/contracts/testing';
import { governanceSpec } from '../testing/spec.js';

/**
 * RFC test 2 — Validation: malformed args where the model gets one repair attempt, then forced
 * summary. "Args structurally changed" is the verifier: a retry whose arguments have the same
 * canonical JSON as an earlier attempt's is rejected, not counted as the repair.
 */
describe('RFC 2: validation — one repair attempt, identical arguments rejected, then forced summary', () => {
  const timeline = new Timeline();
  const agent = new SpecAgent(timeline, 'acme', 'planner', 'run-2', { resourceClass: 'api_endpoint', effect: 'read' });
  const spec = governanceSpec();
  const keyId = 'run|acme|run=run-2|calendar_search|api_endpoint|~|validation|seb=0';

  const malformed = agent.call('calendar_search', { arguments: { from: '2025-13-01', limit: 10 } });
  const rejected = agent.failed(malformed, { httpStatus: 422, message: 'from: month must be 1-12' });
  // Same arguments, keys in another order: structurally unchanged.
  const sameAgain = agent.retry(malformed, { arguments: { limit: 10, from: '2025-13-01' } });
  const repaired = agent.retry(malformed, { arguments: { from: '2025-12-01', limit: 10 } });

  it('the first rejection opens a run key with budget +1: ask for corrected arguments', () => {
    spec
      .given([])
      .when(rejected)
      .then({
        keyId,
        failureClass: 'validation',
        budget: 1,
        retryCount: 0,
        status: 'open',
        decision: { level: 'advise', nextAction: 'correct_arguments' },
      });
  });

  it('structurally identical arguments are rejected at preflight', () => {
    spec
      .given([rejected])
      .whenPreflight('acme', sameAgain, timeline.now())
      .thenDenied({
        reason:
          /already sent these exact arguments to \S+ on .*: only structurally different arguments may be tried \[key run\|/,
      });
  });

  it('sending them anyway is a violation, not the repair: block and demand changed arguments', () => {
    spec
      .given([rejected])
      .when(agent.requested(sameAgain))
      .then({
        keyId,
        retryCount: 1,
        legitimateAttempts: 0,
        violations: 1,
        lastViolation: expect.objectContaining({ kind: 'identical_arguments' }),
        decision: { level: 'block', nextAction: 'correct_arguments' },
      });
  });

  it('structurally changed arguments are the one legitimate repair attempt', () => {
    spec.given([rejected]).whenPreflight('acme', repaired, timeline.now()).thenAllowed();
    spec
      .given([rejected])
      .when(agent.requested(repaired))
      .then({ keyId, retryCount: 1, legitimateAttempts: 1, violations: 0, status: 'open', needsDecision: false });
  });

  it('when the repair is rejected too, the budget is spent: forced summary', () => {
    spec
      .given([rejected, agent.requested(repaired)])
      .when(agent.failed(repaired, { httpStatus: 400, message: 'limit: must be <= 5' }))
      .then({ keyId, retryCount: 1, status: 'exhausted', decision: { level: 'block', nextAction: 'forced_summary' } });
  });

  it('after the forced summary any further attempt is denied, even with new arguments', () => {
    const thirdTry = agent.retry(repaired, { arguments: { from: '2025-12-01', limit: 5 } });
    spec
      .given([rejected, agent.requested(repaired), agent.failed(repaired, { httpStatus: 400 })])
      .whenPreflight('acme', thirdTry, timeline.now())
      .thenDenied({
        reason: /has spent its retry budget \(1\) for \S+ on .*: \d+ \w+ failures? since \S+Z, the last at \S+Z \[key /,
        decision: { nextAction: 'forced_summary' },
      });
  });

  it('a repair that succeeds resolves the key', () => {
    spec
      .given([rejected, agent.requested(repaired)])
      .when(agent.succeeded(repaired, { rowCount: 3, empty: false }))
      .then({
        keyId,
        status: 'resolved',
        decision: { intervene: false, nextAction: 'proceed' },
      });
  });
});
