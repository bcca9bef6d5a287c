import type {
  Backoff,
  DecisionLevel,
  EquivalenceKey,
  FailureClass,
  InterventionClass,
  KeyScope,
  NextAction,
  ResolutionKind,
  VerifierKind,
  VerifierStatus,
} from '@tokencircuit/contracts';
import type { ProgressTrack } from './progress/progress-track.js';

/** Whether a mutation may have happened before the failure, and the facts that decided it. */
export interface SideEffectBoundary {
  readonly value: boolean;
  /** Machine-readable facts, e.g. "declared_effect:write", "dispatch:request_sent", "http_method:POST". */
  readonly evidence: readonly string[];
}

/** classify()'s answer for one outcome. */
export interface Classification {
  readonly failureClass: FailureClass;
  /** Machine-readable reason, e.g. "http_status:403", "sqlstate_class:42", "class_hint". */
  readonly reason: string;
  readonly sideEffect: SideEffectBoundary;
}

/** The identity of one failure_state row: scope + raw RFC key fields + the scope's own coordinates. */
export interface StateKey {
  readonly scope: KeyScope;
  readonly tenant: string;
  /** null for fleet-scoped keys. */
  readonly run: string | null;
  /** Fleet keys are about a principal and a resource; run keys keep them for the artifact. */
  readonly principal: string | null;
  readonly resourceId: string | null;
  readonly equivalenceKey: EquivalenceKey;
}

export type FailureStatus =
  /** Failed, retries still allowed under the class's verifier requirement. */
  | 'open'
  /** Waiting for a verifier (read-after-write, empty result, resource resolution) before anything else. */
  | 'awaiting_verification'
  /** Budget used up: no further attempt is legitimate. */
  | 'exhausted'
  /** Budget-0 class (permission, invariant): stopped until an operator resolves it. */
  | 'blocked'
  /** Closed by a success, a passing verifier or an operator resolution. */
  | 'resolved';

/** Why an attempt was not legitimate under its key's verifier requirement (see docs/adr/0001). */
export type ViolationKind =
  /** Any attempt on a blocked (budget-0) key. */
  | 'ignored_block'
  /** An attempt on an exhausted key, or one more than the budget allows. */
  | 'over_budget'
  /** A transient retry that changed its intentId: it is a new goal, not a retry. */
  | 'intent_changed'
  /** A transient retry sent before the server's Retry-After / rate-limit reset. */
  | 'before_server_delay'
  /** Arguments structurally identical (same canonical JSON) to an earlier attempt's. */
  | 'identical_arguments'
  /** A write retried while its earlier effect is still unknown: the duplicate-side-effect bug. */
  | 'write_before_reconciliation'
  /** An empty read repeated unchanged before the empty-result verifier answered. */
  | 'unverified_empty_retry'
  /** A missing_resource retry with an identifier that was missing and has not been resolved. */
  | 'unresolved_identifier'
  /** A re-run of the query whose empty result the empty-result verifier refuted (judged wrong). */
  | 'rejected_query_rerun';

export interface Violation {
  readonly kind: ViolationKind;
  readonly callId: string;
  readonly eventId: string;
  readonly at: string;
  /**
   * The verifier or operator event that legitimised the next attempt after this violation (absent
   * while none has): from then on the violation is history, and what the RFC grants applies.
   */
  readonly legitimisedBy?: string;
}

/**
 * What the last verifier or operator established about the key's open question: a verifier.result's
 * finding (confirmed / refuted / inconclusive) read for the verifier's kind.
 */
export type VerifierFinding =
  /** read_after_write confirmed. */
  | 'effect_applied'
  /** read_after_write refuted. */
  | 'effect_not_applied'
  /** empty_result confirmed. */
  | 'empty_valid'
  /** empty_result refuted (the key is reclassified). */
  | 'empty_invalid'
  /** resource_resolution confirmed. */
  | 'resource_resolved'
  /** resource_resolution refuted: discovery found no such resource. */
  | 'resource_unresolved'
  /** An operator's resource_confirmed resolution of a missing resource. */
  | 'resource_confirmed'
  /** The one re-send an operator's effect_absent resolution allowed was sent: another would duplicate it. */
  | 'effect_resent'
  /** same_verifier confirmed. */
  | 'same_verifier_passed'
  /** same_verifier refuted: the failure persists. */
  | 'same_verifier_failed'
  /** Any verifier that could not tell. */
  | 'inconclusive';

/** The last operator resolution applied to the key, kept for the audit trail and the artifact. */
export interface OperatorRecord {
  readonly resolution: ResolutionKind;
  readonly by: string;
  readonly reason: string;
  readonly at: string;
  readonly eventId: string;
  /** none = not requested; applied = config.unsafeOverride names the class; refused = it does not. */
  readonly unsafeOverride: 'none' | 'applied' | 'refused';
}

/** A delay the server imposed (Retry-After, rate-limit reset) on the last failure. */
export interface ServerDelay {
  readonly delayMs: number;
  readonly source: 'retry_after' | 'rate_limit_reset';
  readonly notBefore: string;
}

/** Who made the last call that moved this key: where an intervention is addressed. */
export interface CallRef {
  readonly agent: string;
  readonly run: string;
  readonly callId: string;
}

/** The classes a failure state's key can have: every intervention class but budget (the spend ledger's). */
export type KeyClass = Exclude<InterventionClass, 'budget'>;

/** Per-key failure state: what the projector stores in failure_state and decide() reads. */
export interface FailureState {
  readonly keyId: string;
  readonly key: StateKey;
  /**
   * One of the six failure classes, or no_progress for a key of the loop detectors (then `progress` is set).
   * Never budget: budgets live on the spend ledger, not in failure state.
   */
  readonly failureClass: KeyClass;
  readonly budget: number;
  /** Attempts after the first classified failure in this key (the RFC's retry_count). */
  readonly retryCount: number;
  readonly status: FailureStatus;
  readonly verifierRequired: VerifierKind | null;
  readonly verifierStatus: VerifierStatus;
  /** Last three receipts, already redacted. */
  readonly lastReceipts: readonly string[];
  readonly classificationReason: string;
  readonly sideEffectEvidence: readonly string[];
  /** Bounded list of the event ids that moved this state, newest last. */
  readonly causingEventIds: readonly string[];
  readonly version: number;
  readonly updatedAt: string;

  /** 1 for the first failure episode; a failure after 'resolved' opens the next one with fresh counters. */
  readonly episode: number;
  readonly openedAt: string;
  /** Call ids counted in this episode, the opening call first (bounded; see MAX_SEEN_CALLS). */
  readonly seenCallIds: readonly string[];
  /**
   * Attempts that met the class's verifier requirement; never more than budget + overrideGrants. The
   * budget counts these only: an illegitimate attempt is blocked and does not use up the retry a later
   * verifier grants.
   */
  readonly legitimateAttempts: number;
  readonly violations: number;
  readonly lastViolation: Violation | null;
  /** Failed outcomes of calls counted in this episode, the opening one included. */
  readonly failures: number;
  /** The intent transient retries must keep. */
  readonly intentId: string;
  /** Structural fingerprints of every counted attempt's arguments (validation and empty-result keys). */
  readonly argFingerprints: readonly string[];
  /** missing_resource: identifiers that were reported missing (null = the call named none). */
  readonly missingResourceIds: readonly (string | null)[];
  /** missing_resource: the identifier a resolution verifier found. */
  readonly resolvedResourceId: string | null;
  readonly finding: VerifierFinding | null;
  /** Time of the last failed outcome in this key: backoff counts from here. */
  readonly lastFailureAt: string;
  readonly serverDelay: ServerDelay | null;
  readonly lastCall: CallRef;
  readonly operator: OperatorRecord | null;
  /** The situation an operator acknowledged; decide() stops paging while it is unchanged. */
  readonly acknowledgedSituation: string | null;
  /** Extra attempts granted by applied, audited unsafe overrides (budget-0 classes only). */
  readonly overrideGrants: number;
  /**
   * The key's last change of class in this episode (absent when it kept the class it opened with, which
   * its equivalence key's error_class names): what the artifact says, so "validation" next to
   * error_class=ambiguous_effect is explained.
   */
  readonly reclassification?: Reclassification;
  /** no_progress keys only: the run's recent calls here and what the detectors concluded. */
  readonly progress?: ProgressTrack;
}

/** A change of a key's failure class within an episode, and what caused it. */
export interface Reclassification {
  readonly from: FailureClass;
  readonly to: FailureClass;
  /** The finding that moved it, e.g. "verifier:empty_result:refuted:wrong_query", "outcome:empty_result_unverified". */
  readonly by: string;
  readonly eventId: string;
  readonly at: string;
}

/** decide()'s verdict on a state under a policy. */
export interface Decision {
  /** false = nothing to tell anyone (e.g. a retry within budget that needs no advice). */
  readonly intervene: boolean;
  readonly level: DecisionLevel;
  readonly nextAction: NextAction;
  readonly backoff: Backoff | null;
  readonly safetyJustification: string;
}
