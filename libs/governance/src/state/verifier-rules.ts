import type { InterventionClass, NextAction, ToolCall } from '@tokencircuit/contracts';
import type { FailureState, ViolationKind } from '../model.js';
import { argumentsFingerprint } from '../support/arguments-fingerprint.js';
import { tracksArguments } from './allowance.js';

/**
 * The RFC's "Verifier Required" column as rules: per class, what legitimises the next attempt and
 * which violation an attempt that does not meet it is. evolve (judgeAttempt), decide and preflight
 * all read this one table, so a requirement cannot be enforced in one place and forgotten in another.
 */
export interface VerifierRule {
  /** The requirement as artifacts name it (verifier_required for classes without a verifier event). */
  readonly requirement: string;
  /** The violation `call` commits against an unresolved key of the class, or null when it meets the requirement. */
  readonly violationOf: (state: FailureState, call: ToolCall) => ViolationKind | null;
  /** What must happen before the next attempt is legitimate, in words, once one was not. */
  readonly remedy: (state: FailureState) => string;
  /** The next allowed action after an illegitimate attempt. */
  readonly afterViolation: (state: FailureState) => NextAction;
}

const awaitingWrite = (s: FailureState): boolean =>
  s.status === 'awaiting_verification' && s.verifierRequired === 'read_after_write';
const awaitingEmpty = (s: FailureState): boolean =>
  s.status === 'awaiting_verification' && s.verifierRequired === 'empty_result';
const repeatsArguments = (s: FailureState, call: ToolCall): boolean =>
  tracksArguments(s) && s.argFingerprints.includes(argumentsFingerprint(call.arguments));
/** The empty-result verifier refuted this key's empty result: the query itself was judged wrong. */
const queryRejected = (s: FailureState): boolean => s.finding === 'empty_invalid';

export const VERIFIER_RULES: Readonly<Record<InterventionClass, VerifierRule>> = {
  transient: {
    requirement: 'same_verifier_passes',
    // A different intent is another goal, not a retry: judgeAttempt does not count it at all.
    violationOf: () => null,
    remedy: () => 'wait for the backoff and the server-imposed delay, then retry the same intent',
    afterViolation: () => 'retry_with_backoff',
  },
  validation: {
    requirement: 'args_structurally_changed',
    violationOf: (s, call) =>
      repeatsArguments(s, call) ? (queryRejected(s) ? 'rejected_query_rerun' : 'identical_arguments') : null,
    remedy: (s) =>
      queryRejected(s)
        ? 'the verifier judged this query wrong; only a structurally different query can be retried'
        : 'identical arguments cannot succeed; only structurally different arguments count',
    afterViolation: () => 'correct_arguments',
  },
  missing_resource: {
    requirement: 'resource_identifier_resolved',
    violationOf: (s, call) => (identifierResolved(s, call.resourceId) ? null : 'unresolved_identifier'),
    remedy: (s) =>
      s.verifierStatus === 'passed' && s.resolvedResourceId !== null
        ? `retry only with the resolved identifier ${s.resolvedResourceId}`
        : 'the identifier is still unresolved; run a discovery step (a resource_resolution verifier) or get human confirmation first',
    afterViolation: (s) =>
      s.verifierStatus === 'passed' && s.resolvedResourceId !== null ? 'proceed' : 'discover_or_confirm_resource',
  },
  ambiguous_effect: {
    requirement: 'result_confirmed',
    violationOf: (s, call) => {
      if (repeatsArguments(s, call)) {
        if (awaitingEmpty(s)) return 'unverified_empty_retry';
        return queryRejected(s) ? 'rejected_query_rerun' : 'identical_arguments';
      }
      return awaitingWrite(s) ? 'write_before_reconciliation' : null;
    },
    remedy: (s) => {
      if (queryRejected(s))
        return 'the verifier judged this query wrong; only a structurally different query can be retried';
      return s.verifierRequired === 'empty_result'
        ? 'run the empty_result verifier: repeating the same query cannot tell a valid empty result from a wrong query'
        : 'reconcile with a read-after-write verifier before any retry: the write may already have happened';
    },
    afterViolation: (s) => {
      if (queryRejected(s)) return 'correct_arguments';
      return s.verifierRequired === 'empty_result' ? 'verify_empty_result' : 'reconcile_before_retry';
    },
  },
  permission: {
    requirement: 'none',
    // Only reachable while an applied unsafe override has reopened the key within its grant.
    violationOf: () => null,
    remedy: () => 'request the missing authorization',
    afterViolation: () => 'stop_request_authorization',
  },
  invariant_violation: {
    requirement: 'none',
    violationOf: () => null,
    remedy: () => 'a human must restore the invariant',
    afterViolation: () => 'fail_closed_page_human',
  },
  no_progress: {
    // Loops are judged by the detectors (libs/governance/src/progress), not per attempt.
    requirement: 'call_or_result_changes',
    violationOf: () => null,
    remedy: () => 'change the call, or wait until what it reads has changed',
    afterViolation: (s) => (s.progress?.detector === 'polling' ? 'poll_less_often' : 'change_approach'),
  },
  budget: {
    // Budgets are judged by the spend ledger (libs/governance/src/spend), never as a failure state's key.
    requirement: 'budget_available',
    violationOf: () => null,
    remedy: () => 'raise the budget, or wait for its window to end',
    afterViolation: () => 'ask_for_budget_increase',
  },
};

/** A new identifier, or one a verifier resolved / an operator confirmed, may be tried. */
function identifierResolved(state: FailureState, resourceId: string | null): boolean {
  if (!state.missingResourceIds.includes(resourceId)) return true;
  if (state.finding === 'resource_confirmed') return true;
  return (
    state.verifierStatus === 'passed' && (state.resolvedResourceId === null || state.resolvedResourceId === resourceId)
  );
}

/**
 * The violation the key's last attempt committed, while nothing has legitimised the next one since:
 * no later legitimate attempt (lastCall moved on) and no verifier or operator grant (legitimisedBy).
 */
export function standingViolation(state: FailureState): ViolationKind | null {
  const v = state.lastViolation;
  if (v === null || v.callId !== state.lastCall.callId || v.legitimisedBy !== undefined) return null;
  return v.kind;
}

/** Violation kinds in words, for justifications and preflight reasons. */
export const violationInWords = (kind: ViolationKind): string => kind.replace(/_/g, ' ');

/**
 * The patch a verifier's or operator's grant adds: a violation still standing is marked legitimised
 * by `eventId`, so what the RFC grants applies although the last attempt was blind.
 */
export function legitimisePatch(state: FailureState, eventId: string): Partial<FailureState> {
  const v = state.lastViolation;
  return standingViolation(state) === null || v === null ? {} : { lastViolation: { ...v, legitimisedBy: eventId } };
}
