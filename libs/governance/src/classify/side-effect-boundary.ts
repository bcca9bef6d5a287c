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
    // The producer saw the request leave; a connect-phase error must belong to something else.
    proof = 'indeterminate';
    evidence.push('dispatch:sent_despite_connect_error');
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

/**
 * A definite reply the tables do not know is still a reply: when the producer saw the response arrive
 * and reports a plain failure, the server refused; the request did not vanish into an unknown outcome.
 */
export function answeredRefusal(meaning: ErrorMeaning | null, outcome: BoundaryOutcome): ErrorMeaning | null {
  if (meaning === null || meaning.reason !== 'unrecognized_error') return meaning;
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
