import { describe, expect, it } from 'vitest';
import { SpecAgent, SpecOperator, Timeline } from '@tokencircuit/contracts/testing';
import { governanceSpec } from '../testing/spec.js';

/**
 * Operator resolutions mean what they say (docs/cli.md, "What each resolution means"). On an
 * uncertain write (a POST that timed out after dispatch), "the effect is confirmed" closes the intent
 * as done: the agent is told the write exists and a re-send is refused. "The effect is absent" allows
 * exactly one re-send. Either ends the episode (status resolved), which is what sends the resolve.
 */
describe('operator resolutions of an uncertain write', () => {
  const timeline = new Timeline();
  const refunds = {
    resourceClass: 'api_endpoint',
    authScope: 'refunds:write',
    effect: 'write',
    httpMethod: 'POST',
  } as const;
  const agent = new SpecAgent(timeline, 'acme', 'support-bot', 'run-r', refunds);
  const oncall = new SpecOperator(timeline, 'acme', 'alice@acme');
  const spec = governanceSpec();
  const keyId = 'run|acme|run=run-r|refund|api_endpoint|refunds:write|ambiguous_effect|seb=1';

  const refund = agent.call('refund', { arguments: { charge: 'ch-1', amount: 40 } });
  const timedOut = agent.unknown(
    refund,
    { errno: 'ETIMEDOUT', message: 'socket timeout after 30000 ms' },
    { requestSent: true, responseReceived: false },
  );
  const resend = agent.retry(refund);
  const later = () => timeline.advance(3_600_000).now();

  for (const kind of ['resource_confirmed', 'effect_confirmed'] as const) {
    it(`given a refund that timed out, when an operator resolves it as ${kind}, then the episode ends, the agent is told the refund exists and preflight refuses a re-send`, () => {
      const confirmed = oncall.resolves(keyId, kind, 'ledger shows one refund');
      spec
        .given([timedOut])
        .when(confirmed)
        .then({
          keyId,
          status: 'resolved',
          finding: 'effect_applied',
          decision: {
            intervene: true,
            level: 'advise',
            nextAction: 'proceed',
            safetyJustification: expect.stringMatching(/alice@acme confirmed the write happened.*do not re-send/),
          },
        });
      spec
        .given([timedOut, confirmed])
        .whenPreflight('acme', resend, later())
        .thenDenied({ reason: /already took effect \(alice@acme confirmed it\)/ });
    });
  }

  it('given a confirmed refund, when operators then reset, acknowledge or say the effect is absent, then a re-send is still refused', () => {
    const confirmed = oncall.resolves(keyId, 'effect_confirmed', 'ledger shows one refund');
    const after = [
      oncall.resolves(keyId, 'reset', 'clean up'),
      oncall.resolves(keyId, 'acknowledged', 'seen'),
      oncall.resolves(keyId, 'effect_absent', 'wrong ledger', true),
    ];
    spec
      .given([timedOut, confirmed, ...after])
      .whenPreflight('acme', resend, later())
      .thenDenied({ reason: /already took effect/ });
  });

  it('given a confirmed refund, when the agent re-sends it anyway, then a new episode opens that pages: it may exist twice', () => {
    const confirmed = oncall.resolves(keyId, 'effect_confirmed', 'ledger shows one refund');
    const anyway = agent.retry(refund);
    spec
      .given([timedOut, confirmed])
      .when(agent.requested(anyway))
      .then({
        keyId,
        episode: 2,
        status: 'awaiting_verification',
        verifierRequired: 'read_after_write',
        lastViolation: expect.objectContaining({ kind: 'write_before_reconciliation', callId: anyway.callId }),
        decision: {
          level: 'page',
          nextAction: 'reconcile_before_retry',
          safetyJustification: expect.stringMatching(/may now exist twice: a human must reconcile/),
        },
      });
    spec
      .given([timedOut, confirmed, agent.requested(anyway)])
      .when(agent.succeeded(anyway))
      .thenNothingChanged();
  });

  it('given a re-send sent anyway after confirmation, "absent" can only mean the duplicate is: the intent stays done', () => {
    const confirmed = oncall.resolves(keyId, 'effect_confirmed', 'ledger shows one refund');
    const anyway = agent.retry(refund);
    const history = [timedOut, confirmed, agent.requested(anyway)];
    spec
      .given(history)
      .when(oncall.resolves(keyId, 'effect_absent', 'no second refund'))
      .thenNothingChanged();
    const noDuplicate = agent.verified(anyway, 'read_after_write', 'refuted');
    spec.given(history).when(noDuplicate).then({ keyId, episode: 2, status: 'resolved', finding: 'effect_applied' });
    spec
      .given([...history, noDuplicate])
      .whenPreflight('acme', agent.retry(anyway), later())
      .thenDenied({ reason: /already took effect/ });
  });

  it('given a refund that timed out, when an operator resolves it as effect_absent, then the episode ends and exactly one re-send is allowed', () => {
    const absent = oncall.resolves(keyId, 'effect_absent', 'ledger shows no refund');
    spec
      .given([timedOut])
      .when(absent)
      .then({ keyId, status: 'resolved', finding: 'effect_not_applied', decision: { nextAction: 'proceed' } });
    spec.given([timedOut, absent]).whenPreflight('acme', resend, later()).thenAllowed();
    spec
      .given([timedOut, absent])
      .when(agent.requested(resend))
      .then({ keyId, status: 'resolved', finding: 'effect_resent' });
    spec
      .given([timedOut, absent, agent.requested(resend)])
      .whenPreflight('acme', agent.retry(resend), later())
      .thenDenied({ reason: /already re-sent once/ });
    // The re-send's own outcome is not another re-send.
    spec
      .given([timedOut, absent, agent.requested(resend)])
      .when(agent.succeeded(resend))
      .thenNothingChanged();
  });

  it('given a refund whose effect is unknown, reset does not apply (it would re-allow the write blind): nothing changes', () => {
    spec
      .given([timedOut])
      .when(oncall.resolves(keyId, 'reset', 'try again'))
      .thenNothingChanged();
    spec
      .given([timedOut])
      .when(oncall.resolves(keyId, 'auth_granted', 'granted'))
      .thenNothingChanged();
  });

  it('given a refund that timed out, an acknowledgement keeps the write refused', () => {
    const ack = oncall.resolves(keyId, 'acknowledged', 'on it');
    spec
      .given([timedOut, ack])
      .whenPreflight('acme', resend, later())
      .thenDenied({ reason: /may have taken effect/ });
  });
});
