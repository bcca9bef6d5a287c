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
] as const;
export const NextActionSchema = z.enum(NEXT_ACTIONS);
export type NextAction = z.infer<typeof NextActionSchema>;
