import type { OperatorResolution } from '@tokencircuit/contracts';
import { overrideCovers } from '../config/policy-lookup.js';
import type { TokenCircuitConfig } from '../config/config.js';
import type { FailureState, OperatorRecord } from '../model.js';
import { allowanceOf, isFloored, situationOf } from './allowance.js';
import { isUncertainWrite, resolutionApplies } from './resolution-meaning.js';
import { transition } from './transition.js';
import { legitimisePatch } from './verifier-rules.js';

/**
 * An operator's resolution of a key (routing matched it by key id), as RESOLUTION_MEANINGS defines it
 * per situation. A resolved key has nothing left to resolve, and a kind that means nothing for the
 * key's situation changes nothing. Every resolution ends the episode (status resolved); what it
 * established stays in `finding`, which preflight reads: an uncertain write confirmed is never re-sent,
 * one found absent is re-sent once. An unsafe override only takes effect when the policy's audited
 * unsafeOverride names the class; it then reopens a stopped budget-0 key for exactly one more attempt.
 */
export function onResolution(state: FailureState, event: OperatorResolution, config: TokenCircuitConfig): FailureState {
  if (state.status === 'resolved') return state;
  const { resolution, by, reason, unsafeOverride } = event.data;
  if (!resolutionApplies(state, resolution)) return state;
  const operator: OperatorRecord = {
    resolution,
    by,
    reason,
    at: event.time,
    eventId: event.id,
    unsafeOverride: !unsafeOverride ? 'none' : overrideCovers(config, state.failureClass) ? 'applied' : 'refused',
  };
  let patch: Partial<FailureState>;
  switch (resolution) {
    case 'auth_granted':
      patch = { status: 'resolved' };
      break;
    case 'resource_confirmed':
      patch = isUncertainWrite(state)
        ? effectEstablished(state, 'effect_applied', event.id)
        : {
            ...legitimisePatch(state, event.id),
            status: 'resolved',
            verifierStatus: 'passed',
            finding: 'resource_confirmed',
          };
      break;
    case 'effect_confirmed':
      patch = effectEstablished(state, 'effect_applied', event.id);
      break;
    case 'effect_absent':
      patch = effectEstablished(state, 'effect_not_applied', event.id);
      break;
    case 'reset':
      patch = {
        status: 'resolved',
        retryCount: 0,
        legitimateAttempts: 0,
        violations: 0,
        lastViolation: null,
        failures: 0,
        overrideGrants: 0,
      };
      break;
    case 'acknowledged':
      patch = { acknowledgedSituation: situationOf(state) };
      break;
    default: {
      const exhaustive: never = resolution;
      return exhaustive;
    }
  }
  const status = patch.status ?? state.status;
  if (
    operator.unsafeOverride === 'applied' &&
    isFloored(state.failureClass) &&
    (status === 'blocked' || status === 'exhausted')
  ) {
    patch = {
      ...patch,
      status: 'open',
      overrideGrants: state.overrideGrants + (state.legitimateAttempts + 1 - allowanceOf(state)),
    };
  }
  return transition(state, event, { ...patch, operator });
}

/** An operator established an uncertain write's effect: the episode ends with the finding preflight reads. */
const effectEstablished = (
  state: FailureState,
  finding: 'effect_applied' | 'effect_not_applied',
  eventId: string,
): Partial<FailureState> => ({
  ...legitimisePatch(state, eventId),
  status: 'resolved',
  verifierStatus: 'passed',
  finding,
});
