import type { FailureClass, KeyScope } from '@tokencircuit/contracts';
import type { FlooredClass } from './config-schema.js';
import type { SpendPolicy } from '../spend/spend-policy.js';
import type { NoProgressPolicy } from '../progress/progress-policy.js';

export interface ClassPolicy {
  /** The RFC's "+N": further attempts allowed after the first classified failure in a key. */
  readonly budget: number;
  readonly scope: KeyScope;
}

export interface ToolPolicy {
  readonly budgets: Readonly<Partial<Record<FailureClass, number>>>;
  readonly emptyResultNeedsVerification: boolean;
}

/** An audited exception to the safety floors; recorded in the policy version like everything else. */
export interface UnsafeOverride {
  readonly classes: readonly FlooredClass[];
  readonly approvedBy: string;
  readonly reason: string;
  readonly ticket: string | null;
}

/** The normalised, validated, frozen policy every core function takes. Build it with loadConfig(). */
export interface TokenCircuitConfig {
  readonly classes: Readonly<Record<FailureClass, ClassPolicy>>;
  readonly tools: Readonly<Record<string, ToolPolicy>>;
  readonly backoff: { readonly baseMs: number; readonly capMs: number };
  readonly unsafeOverride: UnsafeOverride | null;
  /** Spend budgets; absent when the policy has none (so a policy without them keeps its version). */
  readonly spend?: SpendPolicy;
  /**
   * The no_progress detectors' thresholds as the policy file sets them; absent = the defaults
   * (DEFAULT_NO_PROGRESS, on), so a policy without the section keeps its version.
   */
  readonly noProgress?: NoProgressPolicy;
}

/** The RFC's transition table: budgets and, for the two facts about a principal, fleet scope. */
export const RFC_CLASS_TABLE: Readonly<Record<FailureClass, ClassPolicy>> = {
  transient: { budget: 2, scope: 'run' },
  validation: { budget: 1, scope: 'run' },
  permission: { budget: 0, scope: 'fleet' },
  missing_resource: { budget: 1, scope: 'run' },
  ambiguous_effect: { budget: 1, scope: 'run' },
  invariant_violation: { budget: 0, scope: 'fleet' },
};

export const DEFAULT_BACKOFF = { baseMs: 500, capMs: 30_000 } as const;
