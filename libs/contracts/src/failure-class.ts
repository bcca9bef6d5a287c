import { z } from 'zod';

/** The RFC's six failure classes. */
export const FAILURE_CLASSES = [
  'transient',
  'validation',
  'permission',
  'missing_resource',
  'ambiguous_effect',
  'invariant_violation',
] as const;
export const FailureClassSchema = z.enum(FAILURE_CLASSES);
export type FailureClass = z.infer<typeof FailureClassSchema>;

/**
 * What an intervention is about: one of the six failure classes, `no_progress` (calls that succeed
 * and change nothing: the same call with the same result, a cycle, a poll of a result that never
 * changes), or `budget` (a spend budget's soft threshold or hard limit was crossed; its artifact carries
 * `spend_budget`). A producer never classifies into no_progress or budget (classHint keeps the six): the
 * core detects them.
 */
export const INTERVENTION_CLASSES = [...FAILURE_CLASSES, 'no_progress', 'budget'] as const;
export const InterventionClassSchema = z.enum(INTERVENTION_CLASSES);
export type InterventionClass = z.infer<typeof InterventionClassSchema>;

/** What a tool declares about its effect on the world; drives the side-effect boundary. */
export const DECLARED_EFFECTS = ['read', 'idempotent_write', 'write', 'unknown'] as const;
export const DeclaredEffectSchema = z.enum(DECLARED_EFFECTS);
export type DeclaredEffect = z.infer<typeof DeclaredEffectSchema>;

export const DECISION_LEVELS = ['advise', 'block', 'page'] as const;
export const DecisionLevelSchema = z.enum(DECISION_LEVELS);
export type DecisionLevel = z.infer<typeof DecisionLevelSchema>;

/** The RFC's "next allowed action" column, one per class, plus the states around it. */
export const NEXT_ACTIONS = [
  'retry_with_backoff',
  'correct_arguments',
  'stop_request_authorization',
  'discover_or_confirm_resource',
  'reconcile_before_retry',
  'fail_closed_page_human',
  'verify_empty_result',
  'forced_summary',
  'proceed',
  /** no_progress: a poll whose result does not change; wait the advised delay and poll less often. */
  'poll_less_often',
  /** no_progress: the same calls keep returning the same results; try something else or summarise. */
  'change_approach',
  /** budget: a soft threshold of a spend budget was crossed; finish the task with what is known. */
  'summarise_and_stop',
  /** budget: the hard limit was reached; no call it covers runs until the budget is raised or its window ends. */
  'ask_for_budget_increase',
] as const;
export const NextActionSchema = z.enum(NEXT_ACTIONS);
export type NextAction = z.infer<typeof NextActionSchema>;
