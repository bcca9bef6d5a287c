import { z } from 'zod';
import { DecisionLevelSchema, FailureClassSchema, InterventionClassSchema, NextActionSchema } from './failure-class.js';

/** The RFC's EquivalenceKey: raw fields, never only a hash (snake_case exactly as the RFC names them). */
export const EquivalenceKeySchema = z.object({
  tool_name: z.string(),
  resource_class: z.string().nullable(),
  auth_scope: z.string().nullable(),
  /** Normalised failure class, e.g. "permission", "transient", or no_progress for a loop of successful calls. */
  error_class: InterventionClassSchema,
  /** True if a mutation may have happened before the failure. */
  side_effect_boundary: z.boolean(),
});
export type EquivalenceKey = z.infer<typeof EquivalenceKeySchema>;

/** fleet: a fact about a principal and resource across every run; run: a fact about one run. */
export const KeyScopeSchema = z.enum(['fleet', 'run']);
export type KeyScope = z.infer<typeof KeyScopeSchema>;

export const VerifierStatusSchema = z.enum(['not_required', 'pending', 'passed', 'failed']);
export type VerifierStatus = z.infer<typeof VerifierStatusSchema>;

/**
 * A change of the key's failure class within its episode: failure_class says `to`, while the equivalence
 * key's error_class keeps the class the key opened with. `by` names the finding that moved it (a verifier's,
 * e.g. "verifier:empty_result:refuted:wrong_query", or an outcome's, e.g. "outcome:empty_result_unverified").
 */
export const ReclassificationSchema = z.object({
  from: FailureClassSchema,
  to: FailureClassSchema,
  by: z.string(),
  event_id: z.string(),
  at: z.iso.datetime({ offset: true }),
});
export type ArtifactReclassification = z.infer<typeof ReclassificationSchema>;

/** The no_progress detectors: the same call with the same result, a cycle of calls, a poll that never changes. */
export const NO_PROGRESS_DETECTORS = ['same_call_same_result', 'cycle', 'polling'] as const;
export const NoProgressDetectorSchema = z.enum(NO_PROGRESS_DETECTORS);
export type NoProgressDetector = z.infer<typeof NoProgressDetectorSchema>;

/** One call of a loop: which call, and the digests that made it equal to the others. */
export const RepeatedCallSchema = z.object({
  call_id: z.string(),
  tool: z.string(),
  /** Fingerprint of the tool and its arguments after the policy's volatile fields were left out. */
  call_digest: z.string(),
  /** The producer's digest of the result (tool_call.outcome v3 resultDigest). */
  result_digest: z.string(),
});
export type RepeatedCall = z.infer<typeof RepeatedCallSchema>;

/** Why a no_progress key intervened: the detector, how often, against which thresholds, and the calls. */
export const NoProgressEvidenceSchema = z.object({
  detector: NoProgressDetectorSchema,
  /** How many times the loop has come round (same call: equal calls; cycle: whole turns; polling: unchanged polls). */
  repeats: z.number().int().nonnegative(),
  /** The policy's threshold for advice and for a block at this detector and effect. */
  advise_at: z.number().int().positive(),
  block_at: z.number().int().positive(),
  /** Whether the repeated calls only read (a read gets higher thresholds than a write). */
  read_only: z.boolean(),
  /** The last calls of the loop, newest last (at most 8). */
  calls: z.array(RepeatedCallSchema).max(8),
  /** A cycle's call digests in the order they turn (null for the other detectors). */
  cycle: z.array(z.string()).max(8).nullable(),
  /** polling: the delay advised before the next poll (grows with each unchanged poll); null otherwise. */
  delay_ms: z.number().int().nonnegative().nullable(),
});
export type NoProgressEvidence = z.infer<typeof NoProgressEvidenceSchema>;

/**
 * The evidence of a budget intervention: which budget (and whose: a run, agent, principal or the tenant),
 * its meter and window, the limit and what was spent and reserved when the threshold was crossed, and the
 * policy's next allowed action. Amounts are ledger units: tokens, calls, or micro-units of `currency`.
 */
export const SpendBudgetEvidenceSchema = z.object({
  budget_id: z.string(),
  per: z.enum(['run', 'agent', 'principal', 'tenant']),
  subject: z.string(),
  meter: z.enum(['tokens', 'cost', 'calls']),
  /** The window's label: 'run', a day (2026-03-01), a month (2026-03) or an hour bucket (2026-03-01T10). */
  window: z.string(),
  window_kind: z.enum(['run', 'rolling', 'day', 'month']),
  limit: z.number().int().nonnegative(),
  spent: z.number().int().nonnegative(),
  reserved: z.number().int().nonnegative(),
  /** The share of the limit crossed; 1 for the hard limit. */
  threshold: z.number().gt(0).lte(1),
  level: z.enum(['advise', 'page', 'block']),
  /** The policy's words for what may happen next ("summarise and stop", "ask for a budget increase"). */
  next_action: z.string(),
  /** The currency of a cost budget; null for tokens and calls. */
  currency: z.string().nullable(),
  /** Where the crossing was seen: an outcome's settle, or a preflight the hard limit refused. */
  crossed_by: z.enum(['settle', 'preflight']),
});
export type SpendBudgetEvidence = z.infer<typeof SpendBudgetEvidenceSchema>;

/** The RFC's DiagnosticArtifact plus the evidence an auditor needs to replay the decision. */
export const DiagnosticArtifactSchema = z.object({
  equivalence_key: EquivalenceKeySchema,
  key_id: z.string(),
  scope: KeyScopeSchema,
  tenant: z.string(),
  run: z.string().nullable(),
  principal: z.string().nullable(),
  resource_id: z.string().nullable(),
  failure_class: InterventionClassSchema,
  budget: z.number().int().nonnegative(),
  budget_exhausted: z.boolean(),
  retry_count: z.number().int().nonnegative(),
  /** Last three error receipts, secrets redacted. */
  sample_receipts: z.array(z.string()).max(3),
  safety_justification: z.string(),
  next_allowed_action: NextActionSchema,
  verifier_required: z.string().nullable(),
  verifier_status: VerifierStatusSchema,
  /** Why side_effect_boundary has the value it has (declared effect, method, dispatch facts, …). */
  side_effect_evidence: z.array(z.string()),
  classification_reason: z.string(),
  policy_version: z.string(),
  state_version: z.number().int().nonnegative(),
  causing_event_ids: z.array(z.string()),
  /**
   * Present only when the key changed class in this episode (absent, not null: artifacts issued before the
   * field existed, and those of keys never reclassified, hash and verify exactly as they did).
   */
  reclassification: ReclassificationSchema.optional(),
  /** Present only on a no_progress artifact (absent elsewhere, so other artifacts hash as before). */
  no_progress: NoProgressEvidenceSchema.optional(),
  /** Present only on a budget artifact (failure_class budget; absent elsewhere, so other artifacts hash as before). */
  spend_budget: SpendBudgetEvidenceSchema.optional(),
});
export type DiagnosticArtifact = z.infer<typeof DiagnosticArtifactSchema>;

export const BackoffSchema = z.object({
  /** Wait at least this long before the next attempt. */
  delayMs: z.number().int().nonnegative(),
  /**
   * Where the delay came from: exponential full jitter, Retry-After or a rate-limit reset header, or
   * no_progress_poll (a poll whose result has not changed: the advised delay doubles per unchanged poll).
   */
  source: z.enum(['exponential_full_jitter', 'retry_after', 'rate_limit_reset', 'no_progress_poll']),
  notBefore: z.iso.datetime({ offset: true }),
});
export type Backoff = z.infer<typeof BackoffSchema>;

/** Published to tokencircuit.interventions.v1 for every decision that needs one. */
export const InterventionDataSchema = z.object({
  interventionId: z.string(),
  tenant: z.string(),
  run: z.string().nullable(),
  agent: z.string().nullable(),
  keyId: z.string(),
  level: DecisionLevelSchema,
  nextAction: NextActionSchema,
  backoff: BackoffSchema.nullable(),
  artifact: DiagnosticArtifactSchema,
  policyVersion: z.string(),
  stateVersion: z.number().int().nonnegative(),
  causingEventIds: z.array(z.string()),
  issuedAt: z.iso.datetime({ offset: true }),
});
export type InterventionData = z.infer<typeof InterventionDataSchema>;
