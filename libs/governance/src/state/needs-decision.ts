import type { FailureState } from '../model.js';

/**
 * Whether a transition needs a decision (an outbox row): a new failure episode, a status change, a
 * violation, a verifier or operator finding, another failure (fresh backoff advice), or an operator
 * acknowledging a new situation (the episode's lifecycle tells the on-call people; no intervention is
 * issued for it). Counting a legitimate attempt does not: nobody needs telling.
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
    prev.failures !== next.failures ||
    prev.acknowledgedSituation !== next.acknowledgedSituation ||
    // no_progress: each level a loop reaches (advise → block → page) is a decision.
    prev.progress?.level !== next.progress?.level
  );
}
