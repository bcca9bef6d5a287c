import { OutcomeStatusSchema, type FailureClass, type ToolCallOutcome } from '@tokencircuit/contracts';
import type { Classification } from '../model.js';
import { meaningOf, transient } from './error-meaning.js';
import { interpretError } from './interpret-error.js';
import { classInContext } from './outcome-context.js';
import { dialectOf } from './provider-dialect.js';
import { answeredRefusal, judgeBoundary } from './side-effect-boundary.js';

type OutcomeData = ToolCallOutcome['data'];

/** The reason for an empty read result nobody has vouched for yet (DESIGN: "valid empty vs wrong query"). */
export const EMPTY_RESULT_UNVERIFIED = 'empty_result_unverified';
/** The reason for a write whose effect is unknown and which a repeat could duplicate. */
export const DISPATCHED_WRITE_WITHOUT_IDEMPOTENCY_KEY = 'dispatched_write_without_idempotency_key';

// Classes whose next step is another attempt: on a write that may have landed, each could duplicate it.
const RETRYING: ReadonlySet<FailureClass> = new Set(['transient', 'validation', 'missing_resource']);

// Read once: the schema is the source of truth, but the hot path should not go through it per call.
const STATUSES: readonly string[] = OutcomeStatusSchema.options;

function assertOutcome(outcome: OutcomeData): void {
  if (typeof outcome !== 'object' || outcome === null)
    throw new TypeError('classify(): expected a tool_call.outcome data object');
  if (typeof outcome.call !== 'object' || outcome.call === null)
    throw new TypeError('classify(): the outcome has no call');
  if (!STATUSES.includes(outcome.status)) {
    throw new TypeError(
      `classify(): unknown outcome status ${JSON.stringify(outcome.status)} (expected succeeded, failed or unknown)`,
    );
  }
  if (outcome.status === 'failed' && !outcome.error) {
    throw new TypeError(
      'classify(): a failed outcome needs an error; parse events with ToolCallOutcomeDataSchema first',
    );
  }
}

const emptyRead = (outcome: OutcomeData): boolean =>
  outcome.result.empty === true || (outcome.result.empty === null && outcome.result.rowCount === 0);

/**
 * The RFC failure class of one outcome, or null for a plain success. Precedence:
 * 1. a succeeded read with an empty result is ambiguous_effect until a verifier says the empty is valid;
 * 2. a write that may have been applied (side-effect boundary crossed) and that a repeat could
 *    duplicate (no idempotency, no key) is ambiguous_effect whenever its class would allow another
 *    attempt — transient, validation or missing_resource; permission and invariant already stop;
 * 3. the producer's classHint;
 * 4. the error's own meaning (interpret-error.ts), or for a bare "unknown" status, transient.
 * Rule 2 outranks the hint because a hint is the producer's guess about retrying, and retrying an
 * unreconciled write is the duplicate-side-effect bug the RFC exists to prevent; a stricter hint
 * (permission, invariant_violation) is still honoured.
 */
export function classify(outcome: OutcomeData): Classification | null {
  assertOutcome(outcome);
  const { call, status, error } = outcome;
  // Half of all events are plain successes: answer them before any lexing or table lookup.
  if (status === 'succeeded' && !emptyRead(outcome)) return null;
  const interpreted = error
    ? interpretError(error, dialectOf(outcome.provider ?? null, outcome.protocol ?? null), outcome.provider ?? null)
        .meaning
    : null;
  const meaning = answeredRefusal(interpreted, outcome);
  const { boundary, call: effect, retrySafe } = judgeBoundary(call, outcome, meaning);

  if (status === 'succeeded') {
    if (effect.kind === 'none' && emptyRead(outcome)) {
      return { failureClass: 'ambiguous_effect', reason: EMPTY_RESULT_UNVERIFIED, sideEffect: boundary };
    }
    return null;
  }

  const own = meaning ?? meaningOf(transient('indeterminate'), 'outcome_unknown');
  const hint = error?.classHint ?? null;
  const inContext = meaning !== null && status === 'failed' ? classInContext(outcome, meaning) : null;
  if (inContext !== null && hint === null) {
    const evidence = [...boundary.evidence, `error:${own.reason}`];
    if (outcome.previousAttempt) evidence.push(`previous_attempt:${outcome.previousAttempt}`);
    if (outcome.identifierChosenBy) evidence.push(`identifier_chosen_by:${outcome.identifierChosenBy}`);
    // An earlier attempt that may have applied is a side effect that happened before this failure.
    const value = inContext.failureClass === 'ambiguous_effect' ? true : boundary.value;
    return { ...inContext, sideEffect: { value, evidence } };
  }
  if (boundary.value && !retrySafe) {
    if (hint !== null && !RETRYING.has(hint)) return { failureClass: hint, reason: 'class_hint', sideEffect: boundary };
    if (!RETRYING.has(own.failureClass))
      return { failureClass: own.failureClass, reason: own.reason, sideEffect: boundary };
    // Keep what the error itself meant: the reason below replaces it.
    const evidence = [
      ...boundary.evidence,
      `error:${own.reason}`,
      ...(hint === null ? [] : [`class_hint_refused:${hint}`]),
    ];
    return {
      failureClass: 'ambiguous_effect',
      reason: DISPATCHED_WRITE_WITHOUT_IDEMPOTENCY_KEY,
      sideEffect: { value: true, evidence },
    };
  }
  if (hint !== null) return { failureClass: hint, reason: 'class_hint', sideEffect: boundary };
  return { failureClass: own.failureClass, reason: own.reason, sideEffect: boundary };
}
