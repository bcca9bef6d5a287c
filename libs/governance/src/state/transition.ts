import type { AgentEvent } from '@tokencircuit/contracts';
import type { FailureState } from '../model.js';
import { appendBounded, BOUNDS } from '../support/bounded.js';

/** `state` moved by `event`: the patch applied, version + 1, time and causing event recorded. */
export function transition(state: FailureState, event: AgentEvent, patch: Partial<FailureState>): FailureState {
  return {
    ...state,
    ...patch,
    version: state.version + 1,
    updatedAt: event.time,
    causingEventIds: appendBounded(state.causingEventIds, event.id, BOUNDS.causingEventIds),
  };
}
