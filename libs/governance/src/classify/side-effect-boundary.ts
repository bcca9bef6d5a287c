import type { ToolCall, ToolCallOutcome } from '@tokencircuit/contracts';
import type { SideEffectBoundary } from '../model.js';
import { callEffect, type CallEffect } from './call-effect.js';
import type { EffectProof, ErrorMeaning } from './error-meaning.js';
import { interpretError } from './interpret-error.js';
import { uncommittedInTransaction } from './outcome-context.js';
import { dialectOf } from './provider-dialect.js';

type OutcomeData = ToolCallOutcome['data'];
/** The parts of an outcome the boundary depends on. */
export type BoundaryOutcome = Pick<OutcomeData, 'status' | 'error' | 'dispatch'> &
  Partial<Pick<OutcomeData, 'transaction' | 'provider' | 'protocol'>>;

/** The boundary plus what classify needs to apply the dispatched-write rule. */
export interface BoundaryJudgement {
  readonly boundary: SideEffectBoundary;
  readonly call: CallEffect;
  /** A repeat cannot duplicate the effect: idempotent by declaration/method, or an idempotency key. */
  readonly retrySafe: boolean;
}

const family = (reason: string): string => reason.split(/[:_]/)[0] ?? reason;

// A module function, not a closure made on every call (under tsx each closure also gets its name set).
const judged = (
  call: ToolCall,
  effect: CallEffect,
  evidence: readonly string[],
  value: boolean,
): BoundaryJudgement => ({
  boundary: { value, evidence },
  call: effect,
  retrySafe: effect.kind === 'idempotent' || call.idempotencyKey !== null,
});

/**
 * Whether a mutation may have happened before the failure (RFC open question 2), from facts only:
 * the call's possible effect (declared effect, SQL verb, HTTP method), whether the request was
 * dispatched (connect refused ≠ timeout after send), what the error proves (a definite refusal, a
 * guaranteed rollback, or nothing), and whether a repeat is safe anyway (idempotency).
 */
export function judgeBoundary(
  call: ToolCall,
  outcome: BoundaryOutcome,
  meaning: ErrorMeaning | null,
): BoundaryJudgement {
  const effect = callEffect(call);
  const evidence: string[] = [...effect.evidence];

  if (outcome.status === 'succeeded') {
    evidence.push('outcome:succeeded');
    return judged(call, effect, evidence, effect.kind !== 'none');
  }
  if (effect.kind === 'none') {
    evidence.push('read_only:cannot_mutate');
    return judged(call, effect, evidence, false);
  }
  const { requestSent, responseReceived } = outcome.dispatch;
  if (requestSent === false) {
    evidence.push('dispatch:not_sent');
    return judged(call, effect, evidence, false);
  }
  if (requestSent === true) evidence.push('dispatch:request_sent');
  if (responseReceived === true) evidence.push('dispatch:response_received');
  if (requestSent === null && responseReceived !== true) evidence.push('dispatch:unknown');
  if (outcome.status === 'unknown') evidence.push('outcome:unknown');

  // "unknown" is the producer saying it cannot tell: only proof of non-dispatch outweighs that.
  let proof: EffectProof =
    outcome.status === 'unknown' && meaning?.effect !== 'not_sent'
      ? 'indeterminate'
      : (meaning?.effect ?? 'indeterminate');
  if (proof === 'not_sent' && requestSent === true) {
    if (responseReceived === true && outcome.error?.httpStatus != null) {
      // An HTTP answer saying the origin never got the request (Cloudflare 521-523/525, Envoy's connection failure):
      // the request left the client for the intermediary that answered, which did not forward it.
      evidence.push('dispatch:not_forwarded_by_intermediary');
    } else {
      // The producer saw the request leave; a connect-phase error must belong to something else.
      proof = 'indeterminate';
      evidence.push('dispatch:sent_despite_connect_error');
    }
  }
  if (meaning?.note) evidence.push(meaning.note);
  if (meaning?.duplicateOnRetry && call.attempt > 1)
    evidence.push('duplicate_on_retry:earlier_attempt_may_have_applied');

  switch (proof) {
    case 'not_sent':
      evidence.push('dispatch:not_sent');
      return judged(call, effect, evidence, false);
    case 'rejected':
      evidence.push('reply:rejected_before_effect');
      return judged(call, effect, evidence, false);
    case 'rolled_back':
      evidence.push(`${meaning ? family(meaning.reason) : 'server'}:rolled_back`);
      return judged(call, effect, evidence, false);
    case 'indeterminate':
      if (uncommittedInTransaction({ call, transaction: outcome.transaction ?? null, error: outcome.error })) {
        evidence.push('transaction:uncommitted_rolled_back');
        return judged(call, effect, evidence, false);
      }
      evidence.push('effect:unknown');
      if (effect.kind === 'idempotent') evidence.push('retry_safe:idempotent');
      if (call.idempotencyKey !== null) evidence.push('idempotency_key:present', 'retry_safe:idempotency_key');
      return judged(call, effect, evidence, true);
    default: {
      const exhaustive: never = proof;
      return exhaustive;
    }
  }
}

// Elasticsearch's _bulk answer: "errors": true when one or more of the operations did not complete, each item with its
// own status (docs-bulk). Salesforce's composite answer with allOrNone false: every subrequest's httpStatusCode, the
// 2xx ones committed (resources_composite_composite). DynamoDB BatchWriteItem's non-empty UnprocessedItems: the other
// requests were written (API_BatchWriteItem). SQS SendMessageBatch's "Failed" entries beside a non-empty "Successful"
// list: those messages were sent (API_SendMessageBatch). Each only with the answer's other half (items, a 2xx
// subrequest, a successful entry).
const BULK_ERRORS = /"errors"\s*:\s*true\b/;
const BULK_ITEMS = /"items"\s*:\s*\[/;
const COMPOSITE_APPLIED = /"compositeResponse"\s*:\s*\[[^]*?"httpStatusCode"\s*:\s*2\d\d\b/;
const UNPROCESSED_ITEMS = /"UnprocessedItems"\s*:\s*\{\s*"/;
const BATCH_SUCCESSFUL = /"Successful"\s*:\s*\[\s*\{/;
const BATCH_FAILED = /"Failed"\s*:\s*\[\s*\{/;

/**
 * A failed outcome whose answer says part of the request was applied: HTTP 207 Multi-Status (RFC 4918 §13: the
 * status of multiple independent operations, some of which may have succeeded), or a bulk API's documented
 * per-item answer with some items applied. A repeat of the whole request repeats the applied part.
 */
export function appliedInPart(error: BoundaryOutcome['error']): boolean {
  if (error === null) return false;
  if (error.httpStatus === 207) return true;
  const text = error.message;
  if (text === null || (error.httpStatus !== null && error.httpStatus !== 200)) return false;
  return (
    (text.includes('"errors"') && BULK_ERRORS.test(text) && BULK_ITEMS.test(text)) ||
    (text.includes('"compositeResponse"') && COMPOSITE_APPLIED.test(text)) ||
    (text.includes('"UnprocessedItems"') && UNPROCESSED_ITEMS.test(text)) ||
    (text.includes('"Successful"') && BATCH_SUCCESSFUL.test(text) && BATCH_FAILED.test(text))
  );
}

/**
 * A definite reply the tables do not know is still a reply: when the producer saw the response arrive
 * and reports a plain failure, the server refused; the request did not vanish into an unknown outcome.
 */
export function answeredRefusal(meaning: ErrorMeaning | null, outcome: BoundaryOutcome): ErrorMeaning | null {
  if (meaning === null) return meaning;
  if (outcome.status === 'failed' && appliedInPart(outcome.error)) {
    // Whatever the failed items' codes say, the others were applied: not a refusal of the request.
    return { ...meaning, effect: 'indeterminate', note: 'reply:applied_in_part' };
  }
  if (meaning.reason !== 'unrecognized_error') return meaning;
  if (outcome.status !== 'failed' || outcome.dispatch.responseReceived !== true) return meaning;
  return { ...meaning, effect: 'rejected', note: 'reply:explicit_error' };
}

/** True if a mutation may have occurred before the failure; evidence says which facts decided it. */
export function sideEffectBoundary(call: ToolCall, outcome: BoundaryOutcome): SideEffectBoundary {
  const dialect = dialectOf(outcome.provider ?? null, outcome.protocol ?? null);
  const meaning = answeredRefusal(
    outcome.error ? interpretError(outcome.error, dialect, outcome.provider ?? null).meaning : null,
    outcome,
  );
  return judgeBoundary(call, outcome, meaning).boundary;
}
