import type { OperatorResolution } from '@tokencircuit/contracts';
import { overrideCovers } from '../config/policy-lookup.js';
import type { TokenCircuitConfig } from '../config/config.js';
import type { FailureState, OperatorRecord } from '../model.js';
import { allowanceOf, allowanceSpent, isFloored, situationOf } from './allowance.js';
import { transition } from './transition.js';
import { legitimisePatch } from './verifier-rules.js';

/**
 * An operator's resolution of a key (routing matched it by key id). A resolved key has nothing
 * left to resolve. An unsafe override only takes effect when the policy's audited unsafeOverride
 * names the class; it then reopens a stopped budget-0 key for exactly one more attempt.
 */
export function onResolution(state: FailureState, event: OperatorResolution, config: TokenCircuitConfig): FailureState {
  if (state.status === 'resolved') return state;
  const { resolution, by, reason, unsafeOverride } = event.data;
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
      patch = {
        ...legitimisePatch(state, event.id),
        verifierStatus: 'passed',
        finding: 'resource_confirmed',
        status:
          state.status === 'awaiting_verification' ? (allowanceSpent(state) ? 'exhausted' : 'open') : state.status,
      };
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
