import type { FailureClass, VerifierResult } from '@tokencircuit/contracts';
import type { FailureState, FailureStatus, Reclassification, VerifierFinding } from '../model.js';
import { allowanceSpent, failureClassOf } from './allowance.js';
import { transition } from './transition.js';
import { budgetFor } from '../config/policy-lookup.js';
import type { TokenCircuitConfig } from '../config/config.js';
import { legitimisePatch } from './verifier-rules.js';
import { RESENT_AFTER_CONFIRMATION } from './resent-reason.js';

/**
 * A verifier's answer about one of this key's calls. Only the verifier the key is waiting for
 * counts; any other (or one about a call this key never saw) changes nothing.
 */
export function onVerifier(state: FailureState, event: VerifierResult, config: TokenCircuitConfig): FailureState {
  const { callId, verifier } = event.data;
  if (verifier !== state.verifierRequired || !state.seenCallIds.includes(callId)) return state;
  const found = patchFor(state, event.data, config);
  if (found === null) return state;
  const patch: VerifierPatch =
    found.failureClass !== undefined && found.failureClass !== state.failureClass
      ? { ...found, reclassification: reclassificationOf(state, found, event) }
      : found;
  const unchanged =
    (patch.status ?? state.status) === state.status &&
    patch.verifierStatus === state.verifierStatus &&
    patch.finding === state.finding &&
    (patch.resolvedResourceId ?? state.resolvedResourceId) === state.resolvedResourceId;
  if (unchanged) return state;
  return transition(
    state,
    event,
    patch.verifierStatus === 'passed' ? { ...patch, ...legitimisePatch(state, event.id) } : patch,
  );
}

type VerifierPatch = Partial<FailureState> & Pick<FailureState, 'verifierStatus' | 'finding'>;

/**
 * What each finding grants (the RFC's "Verifier Required" column): `confirmed` / `refuted` answer the
 * key's open question and grant what the RFC grants for that answer; `inconclusive` grants nothing and
 * takes nothing away: it is recorded only while no conclusive answer stands.
 */
function patchFor(state: FailureState, data: VerifierResult['data'], config: TokenCircuitConfig): VerifierPatch | null {
  const { finding, resolved } = data;
  if (!asksVerifier(state, data.verifier)) return null;
  if (finding === 'inconclusive') return inconclusive(state);
  switch (data.verifier) {
    case 'read_after_write':
      // confirmed: the write happened, a retry would duplicate it; refuted: it did not, the +1 retry is safe.
      // A re-send sent after the intent's write was confirmed: not applied means the duplicate is not, and the
      // confirmed write still stands, so the intent stays done either way.
      if (state.classificationReason === RESENT_AFTER_CONFIRMATION)
        return { status: 'resolved', verifierStatus: 'passed', finding: 'effect_applied' };
      return finding === 'confirmed'
        ? { status: 'resolved', verifierStatus: 'passed', finding: 'effect_applied' }
        : retryAllowed(state, 'effect_not_applied');
    case 'empty_result':
      // confirmed: the empty result is the answer; refuted: the question is answered, and it is a class.
      return finding === 'confirmed'
        ? { status: 'resolved', verifierStatus: 'passed', finding: 'empty_valid' }
        : reclassified(state, data, config);
    case 'resource_resolution':
      // refuted: discovery found no such resource; only a human confirmation (or a later resolution) is left.
      return finding === 'confirmed'
        ? { verifierStatus: 'passed', finding: 'resource_resolved', resolvedResourceId: resolved.resolvedResourceId }
        : { verifierStatus: 'failed', finding: 'resource_unresolved', resolvedResourceId: null };
    case 'same_verifier':
      // refuted: the failure persists; the budget and its backoff still govern, nothing more is granted.
      return finding === 'confirmed'
        ? { status: 'resolved', verifierStatus: 'passed', finding: 'same_verifier_passed' }
        : { verifierStatus: 'failed', finding: 'same_verifier_failed' };
    default: {
      const exhaustive: never = data.verifier;
      return exhaustive;
    }
  }
}

/** Whether the key's state still has the question this kind of verifier answers. */
function asksVerifier(state: FailureState, verifier: VerifierResult['data']['verifier']): boolean {
  switch (verifier) {
    case 'read_after_write':
    case 'empty_result':
      return state.status === 'awaiting_verification';
    case 'resource_resolution':
      return state.status === 'open' || state.status === 'awaiting_verification';
    case 'same_verifier':
      return state.status !== 'resolved';
    default: {
      const exhaustive: never = verifier;
      return exhaustive;
    }
  }
}

/** No answer: nothing granted, and an answer a verifier gave earlier still stands. */
const inconclusive = (state: FailureState): VerifierPatch | null =>
  state.verifierStatus === 'passed' ? null : { verifierStatus: 'failed', finding: 'inconclusive' };

const reopened = (state: FailureState): FailureStatus => (allowanceSpent(state) ? 'exhausted' : 'open');

// Once the question is answered the budget applies again: no attempts left means exhausted. (A module
// function rather than a closure made for every verifier event.)
const retryAllowed = (state: FailureState, finding: VerifierFinding): VerifierPatch => ({
  status: reopened(state),
  verifierStatus: 'passed',
  finding,
});

/**
 * The verifier refuted the empty result: the question "valid empty or not?" is answered, and the
 * answer is a class of its own. A wrong query is `validation` (only a structurally different query
 * may run), an absent target is `missing_resource` (only a resolved identifier). The class's budget
 * applies from here; classificationReason keeps the causal chain for the artifact.
 */
function reclassified(state: FailureState, data: VerifierResult['data'], config: TokenCircuitConfig): VerifierPatch {
  const cause = data.resolved.emptyCause ?? 'wrong_query';
  const failureClass: FailureClass = cause === 'target_absent' ? 'missing_resource' : 'validation';
  const budget = budgetFor(config, data.tool, failureClass);
  // Attempts made while the question was open count against the new class's budget too, but never past
  // it: a class with a smaller budget is spent, not overdrawn (legitimateAttempts ≤ allowance holds).
  const legitimateAttempts = Math.min(state.legitimateAttempts, budget + state.overrideGrants);
  const next = { ...state, budget, legitimateAttempts };
  const chain = `${state.classificationReason}>verifier:empty_result:refuted:${cause}`;
  const common = {
    failureClass,
    budget,
    legitimateAttempts,
    status: reopened(next),
    finding: 'empty_invalid' as const,
    classificationReason: chain,
  };
  return failureClass === 'validation'
    ? { ...common, verifierRequired: null, verifierStatus: 'passed' }
    : {
        ...common,
        verifierRequired: 'resource_resolution',
        verifierStatus: 'pending',
        missingResourceIds: [state.key.resourceId],
        resolvedResourceId: null,
      };
}

/**
 * The verifier finding that changed the key's class, for the artifact: the last link of the reason chain
 * reclassified() wrote (classification_reason keeps every link).
 */
function reclassificationOf(state: FailureState, patch: VerifierPatch, event: VerifierResult): Reclassification {
  const chain = patch.classificationReason ?? '';
  return {
    from: failureClassOf(state),
    to: failureClassOf({ keyId: state.keyId, failureClass: patch.failureClass! }),
    by: chain.slice(chain.lastIndexOf('>') + 1) || `verifier:${event.data.verifier}:${event.data.finding}`,
    eventId: event.id,
    at: event.time,
  };
}
