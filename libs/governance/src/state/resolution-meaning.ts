import type { FailureClass, ResolutionKind } from '@tokencircuit/contracts';
import type { FailureState } from '../model.js';
import { RESENT_AFTER_CONFIRMATION } from './resent-reason.js';

/**
 * What each operator resolution means, per situation of a key: the one table onResolution applies, the
 * API checks before it accepts a resolution, and docs/cli.md, `resolve --help` and the dashboard show.
 * A resolution ends the episode (status resolved, which sends the resolve to every sink that got the
 * trigger); an acknowledgement only stops the paging. A kind with no meaning for the situation changes
 * nothing (and the API refuses it): "the resource exists" must never lift a permission block, and a
 * blind reset must never re-allow a write whose effect nobody established.
 */
export type ResolutionSituation =
  | Exclude<FailureClass, 'ambiguous_effect'>
  | 'uncertain_write'
  | 'empty_result'
  | 'no_progress';

export const RESOLUTION_SITUATIONS: readonly ResolutionSituation[] = [
  'permission',
  'invariant_violation',
  'missing_resource',
  'validation',
  'transient',
  'uncertain_write',
  'empty_result',
  'no_progress',
];

/** An ambiguous_effect key about a write: its effect is what an operator may establish. */
export const isUncertainWrite = (s: Pick<FailureState, 'failureClass' | 'verifierRequired'>): boolean =>
  s.failureClass === 'ambiguous_effect' && s.verifierRequired !== 'empty_result';

export function situationOfKey(s: Pick<FailureState, 'failureClass' | 'verifierRequired'>): ResolutionSituation {
  if (s.failureClass !== 'ambiguous_effect') return s.failureClass;
  return isUncertainWrite(s) ? 'uncertain_write' : 'empty_result';
}

const ACK = 'stops paging for the situation as it stands; the key stays as it is (not a resolution)';
const RESET = 'ends the episode and forgets its counters: agents may try again';

/** Per situation, the kinds that apply and what each does. A kind missing from a row does not apply. */
export const RESOLUTION_MEANINGS: Readonly<
  Record<ResolutionSituation, Readonly<Partial<Record<ResolutionKind, string>>>>
> = {
  permission: {
    auth_granted: 'the access was granted: ends the episode, every agent of the principal may try again',
    reset: RESET,
    acknowledged: ACK,
  },
  invariant_violation: {
    reset: 'a human restored the invariant: ends the episode, agents may try again',
    acknowledged: ACK,
  },
  missing_resource: {
    resource_confirmed: 'the resource exists (the failure was a lag): ends the episode, the identifier may be retried',
    reset: RESET,
    acknowledged: ACK,
  },
  validation: { reset: RESET, acknowledged: ACK },
  transient: { reset: RESET, acknowledged: ACK },
  uncertain_write: {
    effect_confirmed:
      'the write happened: ends the episode and closes the intent as done; the agent is told the write exists and a re-send of the intent is refused (preflight and decide)',
    resource_confirmed: 'the written resource exists: the same as effect_confirmed',
    effect_absent:
      'the write did not happen: ends the episode and allows exactly one re-send of the intent; a second is refused (not after a re-send sent anyway: the intent was written once already)',
    reset:
      'only once a verifier found the write absent: ends the episode; while the effect is unknown it does not apply (say effect_confirmed or effect_absent)',
    acknowledged: ACK,
  },
  empty_result: { reset: RESET, acknowledged: ACK },
  no_progress: { reset: 'forgets the loop: the run may repeat those calls again', acknowledged: ACK },
};

/** Whether `kind` means anything for the key now (an unknown write effect admits only what establishes it). */
export function resolutionApplies(state: FailureState, kind: ResolutionKind): boolean {
  const situation = situationOfKey(state);
  if (RESOLUTION_MEANINGS[situation][kind] === undefined) return false;
  // The intent of a re-send sent anyway was already written once: "absent" can only mean the duplicate is.
  if (kind === 'effect_absent' && state.classificationReason === RESENT_AFTER_CONFIRMATION) return false;
  return !(kind === 'reset' && situation === 'uncertain_write' && state.status === 'awaiting_verification');
}

/** The kinds an operator may send for the key now, for errors and help. */
export const applicableResolutions = (state: FailureState): ResolutionKind[] =>
  (Object.keys(RESOLUTION_MEANINGS[situationOfKey(state)]) as ResolutionKind[]).filter((kind) =>
    resolutionApplies(state, kind),
  );

/**
 * A resolved key whose intent must not be written again: its write was confirmed applied, or the one
 * re-send an effect_absent allowed was sent. Preflight loads these resolved keys too (candidate selection).
 */
export const guardsIntent = (s: Pick<FailureState, 'finding'>): boolean =>
  s.finding === 'effect_applied' || s.finding === 'effect_resent';
