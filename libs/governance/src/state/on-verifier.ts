import type { VerifierResult } from '@tokencircuit/contracts';
import type { FailureState, FailureStatus, VerifierFinding } from '../model.js';
import { allowanceSpent } from './allowance.js';
import { transition } from './transition.js';
import { legitimisePatch } from './verifier-rules.js';

/**
 * A verifier's answer about one of this key's calls. Only the verifier the key is waiting for
 * counts; any other (or one about a call this key never saw) changes nothing.
 */
export function onVerifier(state: FailureState, event: VerifierResult): FailureState {
  const { callId, verifier } = event.data;
  if (verifier !== state.verifierRequired || !state.seenCallIds.includes(callId)) return state;
  const patch = patchFor(state, event.data);
  if (patch === null) return state;
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

function patchFor(state: FailureState, data: VerifierResult['data']): VerifierPatch | null {
  const { passed, resolved } = data;
  const inconclusive: VerifierPatch = { verifierStatus: 'failed', finding: 'inconclusive' };
  switch (data.verifier) {
    case 'read_after_write':
      if (state.status !== 'awaiting_verification') return null;
      if (!passed || resolved.effectApplied === null) return inconclusive;
      return resolved.effectApplied
        ? { status: 'resolved', verifierStatus: 'passed', finding: 'effect_applied' }
        : retryAllowed(state, 'effect_not_applied');
    case 'empty_result':
      if (state.status !== 'awaiting_verification') return null;
      if (!passed || resolved.emptyIsValid === null) return inconclusive;
      return resolved.emptyIsValid
        ? { status: 'resolved', verifierStatus: 'passed', finding: 'empty_valid' }
        : retryAllowed(state, 'empty_invalid');
    case 'resource_resolution':
      if (state.status !== 'open' && state.status !== 'awaiting_verification') return null;
      if (!passed) return inconclusive;
      return {
        verifierStatus: 'passed',
        finding: 'resource_resolved',
        resolvedResourceId: resolved.resolvedResourceId,
      };
    case 'same_verifier':
      if (state.status === 'resolved') return null;
      return passed ? { status: 'resolved', verifierStatus: 'passed', finding: 'same_verifier_passed' } : inconclusive;
    default: {
      const exhaustive: never = data.verifier;
      return exhaustive;
    }
  }
}

const reopened = (state: FailureState): FailureStatus => (allowanceSpent(state) ? 'exhausted' : 'open');

// Once the question is answered the budget applies again: no attempts left means exhausted. (A module
// function rather than a closure made for every verifier event.)
const retryAllowed = (state: FailureState, finding: VerifierFinding): VerifierPatch => ({
  status: reopened(state),
  verifierStatus: 'passed',
  finding,
});
