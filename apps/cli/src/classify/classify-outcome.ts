import type { EquivalenceKey, FailureClass, KeyScope, ToolCallOutcome } from '@tokencircuit/contracts';
import {
  createGovernance,
  classify,
  keyIdOf,
  sideEffectBoundary,
  stateKeyFor,
  type TokenCircuitConfig,
} from '@tokencircuit/governance';

/** One line of `tokencircuit classify` output: what the core makes of one outcome. */
export interface ClassifiedLine {
  readonly line: number;
  /** null: no failure (a success, or an empty result the policy accepts as valid). */
  readonly class: FailureClass | null;
  readonly reason: string;
  readonly scope: KeyScope | null;
  /** The RFC EquivalenceKey's raw fields; null when nothing failed. */
  readonly key: EquivalenceKey | null;
  readonly keyId: string | null;
  readonly sideEffectBoundary: boolean;
  readonly evidence: readonly string[];
}

/** Classifies one outcome under a policy exactly as the projector routes it (pure). */
export function classifyOutcome(line: number, event: ToolCallOutcome, config: TokenCircuitConfig): ClassifiedLine {
  const outcome = event.data;
  const classification = createGovernance(config).classify(outcome);
  if (classification === null) {
    const boundary = sideEffectBoundary(outcome.call, outcome);
    // classify() answers only for failures and unverified empty reads; the policy can accept the latter.
    const reason = classify(outcome) === null ? 'succeeded' : 'empty_result_accepted_by_policy';
    return {
      line,
      class: null,
      reason,
      scope: null,
      key: null,
      keyId: null,
      sideEffectBoundary: boundary.value,
      evidence: boundary.evidence,
    };
  }
  const key = stateKeyFor(event.tenant, outcome.call, classification, config);
  return {
    line,
    class: classification.failureClass,
    reason: classification.reason,
    scope: key.scope,
    key: key.equivalenceKey,
    keyId: keyIdOf(key),
    sideEffectBoundary: classification.sideEffect.value,
    evidence: classification.sideEffect.evidence,
  };
}
