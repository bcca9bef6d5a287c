import type { FailureState } from '../model.js';

/**
 * Whether a transition needs a decision (an outbox row): a new failure episode, a status change, a
 * violation, a verifier or operator finding, or another failure (fresh backoff advice). Counting a
 * legitimate attempt or recording an acknowledgement does not: nobody needs telling.
 */
export function needsDecision(prev: FailureState | null, next: FailureState | null): boolean {
  if (next === null || prev === next) return false;
  if (prev === null) return next.status !== 'resolved';
  return (
    prev.episode !== next.episode ||
    prev.status !== next.status ||
    prev.violations !== next.violations ||
    prev.verifierStatus !== next.verifierStatus ||
    prev.finding !== next.finding ||
    prev.failures !== next.failures
  );
}
