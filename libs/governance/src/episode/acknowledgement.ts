import type { FailureState } from '../model.js';

/**
 * Whether the state's latest transition is an operator acknowledgement and nothing else (no applied
 * unsafe override, which reopens the key): it tells the people on call, not the agents.
 */
export function isAcknowledgementOnly(state: FailureState): boolean {
  const op = state.operator;
  return (
    op !== null &&
    op.resolution === 'acknowledged' &&
    op.unsafeOverride !== 'applied' &&
    op.eventId === state.causingEventIds[state.causingEventIds.length - 1]
  );
}
