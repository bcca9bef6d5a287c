import type { ToolCallOutcome } from '@tokencircuit/contracts';
import type { Classification } from '../model.js';
import type { ErrorMeaning } from './error-meaning.js';
import { lexSql, splitStatements } from './sql-lexer.js';

type OutcomeData = ToolCallOutcome['data'];

/** The reason when a duplicate or a failed precondition follows an attempt that may have applied. */
export const EARLIER_ATTEMPT_MAY_HAVE_APPLIED = 'earlier_attempt_may_have_applied';
/** The reason when the caller chose an identifier that is already taken: choose another. */
export const IDENTIFIER_TAKEN = 'identifier_taken';
/** The reason when a create-only write (If-None-Match: *) failed its precondition: the target already exists. */
export const TARGET_EXISTS = 'precondition_failed:target_exists';

const CONFLICT_REASON = /(?:^http_status:409$|conflict)/i;

// Commit-like statements: their failure without an answer leaves the transaction's fate unknown.
const COMMITS = /^\s*(?:commit|end|release|prepare\s+transaction|xa\s+commit)\b/i;
// A word any commit-like statement holds: texts without one need no lexing.
const COMMIT_WORD = /commit|end|release|prepare/i;

/**
 * Whether any statement of an SQL text commits: COMMIT (COMMIT WORK, COMMIT TRANSACTION, COMMIT PREPARED), END
 * (PostgreSQL's alias), RELEASE (SQLite commits when the outermost savepoint is released), PREPARE TRANSACTION and
 * XA COMMIT, also as a later statement of a batch ("UPDATE …; COMMIT") or behind a comment ("/* app *\/ COMMIT"): a
 * batch that carries its own commit may have committed before the connection was lost.
 */
function commits(sql: string): boolean {
  if (COMMITS.test(sql)) return true;
  if (!COMMIT_WORD.test(sql)) return false;
  for (const [first, second] of splitStatements(lexSql(sql))) {
    if (first?.kind !== 'word') continue;
    if (first.text === 'COMMIT' || first.text === 'END' || first.text === 'RELEASE') return true;
    if (second?.kind !== 'word') continue;
    if (
      (first.text === 'PREPARE' && second.text === 'TRANSACTION') ||
      (first.text === 'XA' && second.text === 'COMMIT')
    )
      return true;
  }
  return false;
}

/**
 * Inside an explicit transaction, nothing is durable before COMMIT: a statement that failed without a
 * definite answer (timeout, lost connection) is rolled back with its transaction (PostgreSQL, MySQL
 * InnoDB and SQL Server roll back an open transaction when its session ends or it is aborted).
 */
export function uncommittedInTransaction(outcome: Pick<OutcomeData, 'call' | 'transaction' | 'error'>): boolean {
  const tx = outcome.transaction;
  if (tx === null || tx === undefined || tx.mode !== 'explicit') return false;
  const sql = outcome.call.sqlStatement;
  if (sql !== null && commits(sql)) return false;
  // No statement text: a message naming COMMIT says the failure hit the commit itself.
  return !(sql === null && /\bcommit/i.test(outcome.error?.message ?? ''));
}

/**
 * The class an error's meaning takes in its context (contract v2), or null when the context changes
 * nothing. The providers' documented semantics decide, read with what the outcome says about it:
 * - a duplicate / already-exists after an attempt whose outcome was unknown (or that succeeded) is
 *   that attempt having applied: reconcile (ambiguous_effect) instead of failing closed;
 * - on a first attempt, an identifier the caller chose is taken (choose another: validation); one the
 *   server chose cannot collide, so the duplicate is a uniqueness rule on the content (invariant);
 * - a failed precondition after an unknown attempt may be our own write having moved the version;
 * - a 409 answering a request that carried a precondition is that precondition failing;
 * - a failed precondition of a create-only write, whose only precondition is If-None-Match (RFC 9110 §13.1.2:
 *   "*" makes an unsafe request fail when the target has a current representation; S3's conditional writes answer
 *   412 when the key exists, 409 when another write races), says the target exists: not a version to re-read but
 *   an existing resource, read like a duplicate (a caller-chosen name taken: validation; else invariant_violation);
 * - an absence answering a DELETE repeated after an attempt that may have applied is that attempt having deleted
 *   it (RFC 9110 §9.2.2: a repeated idempotent request's response may differ, a 404 after the first deletion):
 *   reconcile, rather than report the target missing.
 */
export function classInContext(
  outcome: OutcomeData,
  meaning: ErrorMeaning,
): Pick<Classification, 'failureClass' | 'reason'> | null {
  const previous = outcome.previousAttempt ?? null;
  const mayHaveApplied = previous === 'unknown' || previous === 'succeeded';
  const preconditionSent = (outcome.preconditions ?? []).length > 0;
  // A conflict answering a request that carried a precondition is that precondition failing.
  const concurrency =
    meaning.concurrency ||
    (preconditionSent && meaning.failureClass === 'invariant_violation' && CONFLICT_REASON.test(meaning.reason));
  if (concurrency) {
    if (mayHaveApplied) return { failureClass: 'ambiguous_effect', reason: EARLIER_ATTEMPT_MAY_HAVE_APPLIED };
    // Only the server's own precondition failure (412 and its named forms): S3 answers a create-only write that
    // races another with a 409 ConditionalRequestConflict, to be retried.
    if (meaning.concurrency && createOnly(outcome.preconditions))
      return outcome.identifierChosenBy === 'caller'
        ? { failureClass: 'validation', reason: IDENTIFIER_TAKEN }
        : { failureClass: 'invariant_violation', reason: TARGET_EXISTS };
    return meaning.concurrency ? null : { failureClass: 'transient', reason: 'precondition_failed' };
  }
  if (mayHaveApplied && meaning.failureClass === 'missing_resource' && isDelete(outcome.call))
    return { failureClass: 'ambiguous_effect', reason: EARLIER_ATTEMPT_MAY_HAVE_APPLIED };
  if (meaning.duplicateOnRetry && meaning.failureClass === 'invariant_violation') {
    if (mayHaveApplied) return { failureClass: 'ambiguous_effect', reason: EARLIER_ATTEMPT_MAY_HAVE_APPLIED };
    if (outcome.identifierChosenBy === 'caller') return { failureClass: 'validation', reason: IDENTIFIER_TAKEN };
  }
  return null;
}

// If-None-Match alone: the request is conditional on the target not existing (no version is compared).
const createOnly = (preconditions: OutcomeData['preconditions'] | undefined): boolean =>
  preconditions !== undefined && preconditions.length > 0 && preconditions.every((p) => p === 'if_none_match');

const isDelete = (call: OutcomeData['call']): boolean => call.httpMethod?.toUpperCase() === 'DELETE';
