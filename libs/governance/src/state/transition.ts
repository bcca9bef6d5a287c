import type { AgentEvent } from '@tokencircuit/contracts';
import type { FailureState } from '../model.js';
import { appendBounded, BOUNDS } from '../support/bounded.js';

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** A new state being written: a copy of the old one (copyOf), changed field by field, then transitioned. */
export type Draft = Mutable<FailureState>;

/** `state` moved by `event`: the patch applied, version + 1, time and causing event recorded. */
export function transition(state: FailureState, event: AgentEvent, patch: Partial<FailureState>): FailureState {
  return transitioned(withPatch(state, patch), state, event);
}

/** `next` (a draft copied from `state`) as the state `event` moved it to: version + 1, time and causing event recorded. */
export function transitioned(next: Draft, state: FailureState, event: AgentEvent): FailureState {
  next.version = state.version + 1;
  next.updatedAt = event.time;
  next.causingEventIds = appendBounded(state.causingEventIds, event.id, BOUNDS.causingEventIds);
  return next;
}

/**
 * The values `{ ...state, ...patch }` has, built field by field. In a fold, states come in many
 * hidden classes and spreading them took V8's generic copy (~0.6 µs per transition, the largest
 * single cost of evolve); one literal in the declaration order gives every state one shape. Fields
 * come out in that order: the order openEpisode creates and the spread kept (a state read back from
 * jsonb, whose key order Postgres chose, leaves in this order instead; jsonb does not keep it).
 */
export function withPatch(state: FailureState, patch: Partial<FailureState>): Draft {
  const next = copyOf(state);
  // Exactly the patch's own keys, as the spread copied them (explicit undefined included).
  for (const name in patch) (next as Record<string, unknown>)[name] = (patch as Record<string, unknown>)[name];
  return next;
}

/** A copy of `state` with the same values, in the one field order every state has (see withPatch). */
export function copyOf(state: FailureState): Draft {
  const next: Draft = {
    keyId: state.keyId,
    key: state.key,
    failureClass: state.failureClass,
    budget: state.budget,
    retryCount: state.retryCount,
    status: state.status,
    verifierRequired: state.verifierRequired,
    verifierStatus: state.verifierStatus,
    lastReceipts: state.lastReceipts,
    classificationReason: state.classificationReason,
    sideEffectEvidence: state.sideEffectEvidence,
    causingEventIds: state.causingEventIds,
    version: state.version,
    updatedAt: state.updatedAt,
    episode: state.episode,
    openedAt: state.openedAt,
    seenCallIds: state.seenCallIds,
    legitimateAttempts: state.legitimateAttempts,
    violations: state.violations,
    lastViolation: state.lastViolation,
    failures: state.failures,
    intentId: state.intentId,
    argFingerprints: state.argFingerprints,
    missingResourceIds: state.missingResourceIds,
    resolvedResourceId: state.resolvedResourceId,
    finding: state.finding,
    lastFailureAt: state.lastFailureAt,
    serverDelay: state.serverDelay,
    lastCall: state.lastCall,
    operator: state.operator,
    acknowledgedSituation: state.acknowledgedSituation,
    overrideGrants: state.overrideGrants,
  };
  // Present only on a key reclassified in this episode (states stored before the field existed refold equal).
  if (state.reclassification !== undefined) next.reclassification = state.reclassification;
  if (state.progress !== undefined) next.progress = state.progress;
  return next;
}
