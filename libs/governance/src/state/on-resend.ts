import type { ToolCallOutcome, ToolCallRequested } from '@tokencircuit/contracts';
import type { FailureState } from '../model.js';
import { appendBounded, BOUNDS } from '../support/bounded.js';
import { isReadCall } from './judge-attempt.js';
import { guardsIntent } from './resolution-meaning.js';
import { RESENT_AFTER_CONFIRMATION } from './resent-reason.js';
import { transition } from './transition.js';

/**
 * A write of a resolved key's intent that is not a failure landing here (a request, or an outcome whose
 * request was not reported). After an operator's effect_absent it is the one re-send allowed: the finding
 * records it, and preflight refuses more. After a confirmed effect (or that one re-send) preflight refused
 * it, so an agent that sent it anyway may have duplicated the side effect: a new episode opens, waiting for
 * a read-after-write, with the violation standing, which decide turns into a page (a human must reconcile).
 */
export function onResend(state: FailureState, event: ToolCallRequested | ToolCallOutcome): FailureState {
  const call = event.data.call;
  if (call.intentId !== state.intentId || isReadCall(call) || state.seenCallIds.includes(call.callId)) return state;
  if (state.finding === 'effect_not_applied' && state.operator?.resolution === 'effect_absent') {
    return transition(state, event, {
      finding: 'effect_resent',
      seenCallIds: appendBounded(state.seenCallIds, call.callId, BOUNDS.seenCallIds),
    });
  }
  if (!guardsIntent(state)) return state;
  // A new episode: nothing of the closed one carries over but the key, its budget and its history ids.
  const { reclassification: _closed, ...kept } = state;
  return {
    ...kept,
    failureClass: 'ambiguous_effect',
    retryCount: 1,
    status: 'awaiting_verification',
    verifierRequired: 'read_after_write',
    verifierStatus: 'pending',
    lastReceipts: [`${call.tool}: intent ${call.intentId} sent again after its write was confirmed (${state.finding})`],
    classificationReason: RESENT_AFTER_CONFIRMATION,
    sideEffectEvidence: ['declared_effect:' + call.effect, `resent_after:${state.finding}`],
    causingEventIds: appendBounded(state.causingEventIds, event.id, BOUNDS.causingEventIds),
    version: state.version + 1,
    updatedAt: event.time,
    episode: state.episode + 1,
    openedAt: event.time,
    seenCallIds: [call.callId],
    legitimateAttempts: 0,
    violations: 1,
    lastViolation: { kind: 'write_before_reconciliation', callId: call.callId, eventId: event.id, at: event.time },
    failures: 0,
    argFingerprints: [],
    missingResourceIds: [],
    resolvedResourceId: null,
    finding: null,
    lastFailureAt: event.time,
    serverDelay: null,
    lastCall: { agent: call.agent, run: call.run, callId: call.callId },
    operator: null,
    acknowledgedSituation: null,
    overrideGrants: 0,
  };
}
