import { z } from 'zod';
import { FailureClassSchema, KeyScopeSchema } from '@tokencircuit/contracts';
import { SpendPolicyInputSchema } from '../spend/spend-schema.js';
import { NoProgressInputSchema } from '../progress/progress-policy.js';

/**
 * Budgets are small on purpose: a key remembers at most 64 call ids (BOUNDS.seenCallIds), and a
 * "retry budget" of dozens is a loop, not a budget.
 */
export const MAX_BUDGET = 50;

const Budget = z.number().int().min(0).max(MAX_BUDGET);

const ClassPolicyInput = z.strictObject({
  budget: Budget.optional(),
  scope: KeyScopeSchema.optional(),
});

const ToolPolicyInput = z.strictObject({
  /** Per-class budgets for this tool only, e.g. a flaky search API allowed 4 transient retries. */
  budgets: z.partialRecord(FailureClassSchema, Budget).optional(),
  /** false = an empty result of this tool is always valid (e.g. "list open incidents"). */
  emptyResultNeedsVerification: z.boolean().optional(),
});

/** The classes whose budget is 0 by safety floor; only an audited unsafeOverride may raise them. */
export const FLOORED_CLASSES = ['permission', 'invariant_violation'] as const;
export type FlooredClass = (typeof FLOORED_CLASSES)[number];

const UnsafeOverrideInput = z.strictObject({
  classes: z.array(z.enum(FLOORED_CLASSES)).min(1),
  approvedBy: z.string().trim().min(1),
  reason: z.string().trim().min(1),
  ticket: z.string().trim().min(1).optional(),
});

/** What a deployment may write in its policy file; every part is optional and unknown fields are refused. */
export const TokenCircuitConfigInputSchema = z.strictObject({
  /** Where an editor finds this file's JSON Schema (docs/schemas/policy.schema.json); ignored by the engine. */
  $schema: z.string().optional(),
  classes: z
    .strictObject({
      transient: ClassPolicyInput.optional(),
      validation: ClassPolicyInput.optional(),
      permission: ClassPolicyInput.optional(),
      missing_resource: ClassPolicyInput.optional(),
      ambiguous_effect: ClassPolicyInput.optional(),
      invariant_violation: ClassPolicyInput.optional(),
    })
    .optional(),
  tools: z.record(z.string().min(1), ToolPolicyInput).optional(),
  backoff: z
    .strictObject({
      baseMs: z.number().int().min(1).max(3_600_000).optional(),
      capMs: z.number().int().min(1).max(86_400_000).optional(),
    })
    .optional(),
  unsafeOverride: UnsafeOverrideInput.nullable().optional(),
  /** Spend budgets, price tables and estimates (docs/budgets.md); absent = no budgets. */
  spend: SpendPolicyInputSchema.optional(),
  /** The no_progress detectors (docs/no-progress.md): thresholds, pollers, volatile argument fields; absent = defaults. */
  noProgress: NoProgressInputSchema.optional(),
});
export type TokenCircuitConfigInput = z.input<typeof TokenCircuitConfigInputSchema>;
