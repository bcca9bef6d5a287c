import type {
  Backoff,
  DecisionLevel,
  EquivalenceKey,
  FailureClass,
  KeyScope,
  NextAction,
  VerifierKind,
  VerifierStatus,
} from '@tokencircuit/contracts';

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

/** Per-key failure state: what the projector stores in failure_state and decide() reads. */
export interface FailureState {
  readonly keyId: string;
  readonly key: StateKey;
  readonly failureClass: FailureClass;
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
