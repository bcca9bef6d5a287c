import type { FailureClass, VerifierResult } from '@tokencircuit/contracts';
import type { FailureState, FailureStatus, VerifierFinding } from '../model.js';
import { allowanceSpent } from './allowance.js';
import { transition } from './transition.js';
import { budgetFor } from '../config/policy-lookup.js';
import type { TokenCircuitConfig } from '../config/config.js';
import { legitimisePatch } from './verifier-rules.js';

/**
 * A verifier's answer about one of this key's calls. Only the verifier the key is waiting for
 * counts; any other (or one about a call this key never saw) changes nothing.
 */
export function onVerifier(state: FailureState, event: VerifierResult, config: TokenCircuitConfig): FailureState {
  const { callId, verifier } = event.data;
  if (verifier !== state.verifierRequired || !state.seenCallIds.includes(callId)) return state;
  const patch = patchFor(state, event.data, config);
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

function patchFor(state: FailureState, data: VerifierResult['data'], config: TokenCircuitConfig): VerifierPatch | null {
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
        : reclassified(state, data, config);
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
  const next = { ...state, budget };
  const chain = `${state.classificationReason}>verifier:empty_result:refuted:${cause}`;
  const common = {
    failureClass,
    budget,
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
