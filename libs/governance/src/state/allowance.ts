import type { FailureClass, InterventionClass } from '@tokencircuit/contracts';
import type { FailureState } from '../model.js';

/** permission and invariant_violation: budget 0 by safety floor, "blocked" rather than "exhausted". */
export const isFloored = (failureClass: InterventionClass): boolean =>
  failureClass === 'permission' || failureClass === 'invariant_violation';

/** Attempts this episode may make after its opening failure: the budget plus audited override grants. */
export const allowanceOf = (state: FailureState): number => state.budget + state.overrideGrants;

/** Whether the legitimate attempts have used up the allowance (violations never spend it). */
export const allowanceSpent = (state: FailureState): boolean => state.legitimateAttempts >= allowanceOf(state);

/** Whether the key compares attempts' arguments (validation, and empty-result reads). */
export const tracksArguments = (state: Pick<FailureState, 'failureClass' | 'verifierRequired'>): boolean =>
  state.failureClass === 'validation' || state.verifierRequired === 'empty_result';

/** The situation an operator acknowledgement covers: a new violation or status is a new situation. */
export const situationOf = (state: FailureState): string =>
  `e${state.episode}/${state.status}/${state.verifierStatus}/v${state.violations}`;

/** The failure class of a key the failure rules move (never a no_progress key: evolve routes those to the detectors). */
export function failureClassOf(state: Pick<FailureState, 'failureClass' | 'keyId'>): FailureClass {
  if (state.failureClass === 'no_progress') throw new TypeError(`${state.keyId}: a no_progress key has no failure class`);
  return state.failureClass;
}
