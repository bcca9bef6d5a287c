import type { AgentEvent } from '@tokencircuit/contracts';
import type { TokenCircuitConfig } from '../config/config.js';
import { concerns } from '../keys/candidate-selection.js';
import { route, type Route } from '../keys/route.js';
import type { FailureState } from '../model.js';
import { onCall } from './on-call.js';
import { onResend } from './on-resend.js';
import { onResolution } from './on-resolution.js';
import { onVerifier } from './on-verifier.js';
import { openEpisode } from './open-episode.js';
import { evolveProgress } from '../progress/progress-state.js';

/**
 * The state of ONE key after `event`. null in, null out unless the event is a failure that opens
 * this key. Returns the very same object for an event that does not concern the key, so callers
 * can detect "no change" by identity.
 */
export function evolve(state: FailureState | null, event: AgentEvent, config: TokenCircuitConfig): FailureState | null {
  const routed = route(event, config);
  if (state === null) return opens(routed, event, config);
  return concerns(state, routed) ? evolveRouted(state, event, routed, config) : state;
}

/** The new episode a failure opens when its key does not exist yet. */
export function opens(routed: Route, event: AgentEvent, config: TokenCircuitConfig): FailureState | null {
  if (event.type !== 'tool_call.outcome' || routed.create === null || routed.classification === null) return null;
  return openEpisode(routed.create, routed.createKeyId!, routed.classification, event, config, null);
}

/** evolve for a key routing already selected (the projector and the fold route each event once). */
export function evolveRouted(
  state: FailureState,
  event: AgentEvent,
  routed: Route,
  config: TokenCircuitConfig,
): FailureState {
  if (state.failureClass === 'no_progress') return evolveProgress(state, event, config);
  switch (event.type) {
    case 'tool_call.requested':
      return state.status === 'resolved' ? onResend(state, event) : onCall(state, event, null);
    case 'tool_call.outcome': {
      const landsHere = routed.createKeyId === state.keyId;
      if (state.status === 'resolved') {
        // A failure after a resolution is a new episode with fresh counters, not more of the old one.
        if (landsHere && routed.classification !== null)
          return openEpisode(state.key, state.keyId, routed.classification, event, config, state);
        return onResend(state, event);
      }
      return onCall(state, event, { classification: routed.classification, landsHere });
    }
    case 'verifier.result':
      return state.status === 'resolved' ? state : onVerifier(state, event, config);
    case 'operator.resolution':
      return onResolution(state, event, config);
    default: {
      const exhaustive: never = event;
      return exhaustive;
    }
  }
}
