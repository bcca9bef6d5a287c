import type { ToolCall, ToolCallOutcome, ToolCallRequested } from '@tokencircuit/contracts';
import { serverDelayOf } from '../backoff/server-delay.js';
import type { Classification, FailureState, FailureStatus, ViolationKind } from '../model.js';
import { appendBounded, appendKeepingFirst, BOUNDS } from '../support/bounded.js';
import { argumentsFingerprint } from '../support/arguments-fingerprint.js';
import { epochMs } from '../support/time.js';
import { allowanceSpent, failureClassOf, isFloored, tracksArguments } from './allowance.js';
import { judgeAttempt, NOT_COUNTED } from './judge-attempt.js';
import { EMPTY_RESULT_REASON } from './open-episode.js';
import { receiptFor } from './receipt.js';
import { copyOf, transitioned, type Draft } from './transition.js';
import { VERIFIER_RULES } from './verifier-rules.js';

/** What routing learned about an outcome: its classification and whether it lands in this very key. */
export interface OutcomeFacts {
  readonly classification: Classification | null;
  readonly landsHere: boolean;
}

/**
 * A call (requested or outcome) at an unresolved key's coordinates. A call id not seen before is an
 * attempt, judged legitimate or a violation; an outcome of a counted call then moves the status.
 *
 * Events of different runs travel on different partitions, so at a fleet key one that happened before
 * the key's episode opened can be folded after it. Such a call cannot be a retry of a failure that had
 * not happened yet: it is no attempt (no violation, nothing spent), and its success does not resolve the
 * key (another agent's read that succeeded a moment before a permission failure proves nothing about
 * it). A run key sees one run's events, in the order of their partition, which is the order they
 * happened in: there an earlier time is a clock that stepped back, and the call counts as always (a
 * re-sent write must page whatever its clock said). Only evolve applies this; preflight judges with the
 * server's `now`, which a fast agent clock must not be able to put "before" a block.
 */
export function onCall(
  state: FailureState,
  event: ToolCallRequested | ToolCallOutcome,
  facts: OutcomeFacts | null,
): FailureState {
  const call = event.data.call;
  const verdict = earlierAtFleetKey(event, state) ? NOT_COUNTED : judgeAttempt(state, call, event.time);
  const counted = verdict.counts || state.seenCallIds.includes(call.callId) || facts?.landsHere === true;
  const outcome = event.type === 'tool_call.outcome' && facts !== null && counted;
  if (!verdict.counts && !outcome) return state;
  // One copy, then the attempt and the outcome written into it field by field: patch objects merged by spreading
  // and copied key by key cost a failed outcome more than its judgement (docs/benchmarks.md, issue 30).
  const next = copyOf(state);
  if (verdict.counts) countAttempt(next, call, verdict.violation, event.id, event.time);
  if (outcome) {
    const moved =
      facts.classification === null
        ? recordSuccess(next)
        : recordFailure(next, event as ToolCallOutcome, facts.classification, facts.landsHere);
    if (!moved && !verdict.counts) return state;
  }
  return transitioned(next, state, event);
}

/** Another run's call at a fleet key, folded after the episode it happened before. */
function earlierAtFleetKey(event: ToolCallRequested | ToolCallOutcome, state: FailureState): boolean {
  return state.key.scope === 'fleet' && epochMs(event.time) < epochMs(state.openedAt);
}

/** A call counted as an attempt: spent, remembered, and judged legitimate or a violation. */
function countAttempt(next: Draft, call: ToolCall, violation: ViolationKind | null, eventId: string, at: string): void {
  const fingerprint = tracksArguments(next) ? argumentsFingerprint(call.arguments) : null;
  next.retryCount += 1;
  next.seenCallIds = appendKeepingFirst(next.seenCallIds, call.callId, BOUNDS.seenCallIds);
  next.lastCall = { agent: call.agent, run: call.run, callId: call.callId };
  if (violation === null) next.legitimateAttempts += 1;
  else {
    next.violations += 1;
    next.lastViolation = { kind: violation, callId: call.callId, eventId, at };
  }
  if (fingerprint !== null && !next.argFingerprints.includes(fingerprint))
    next.argFingerprints = appendBounded(next.argFingerprints, fingerprint, BOUNDS.argFingerprints);
}

/** A counted call succeeded: the key's problem is gone, unless a verifier still owes an answer. false: nothing moved. */
function recordSuccess(next: Draft): boolean {
  if (next.status === 'awaiting_verification') return false;
  next.status = 'resolved';
  return true;
}

/** A counted call failed (in this key's class or another): record it and spend the budget. */
function recordFailure(next: Draft, event: ToolCallOutcome, classification: Classification, landsHere: boolean): true {
  const { call, error } = event.data;
  // Read before the failure is recorded, as the key stood after the attempt.
  const spent = allowanceSpent(next);
  next.failures += 1;
  next.lastReceipts = appendBounded(next.lastReceipts, receiptFor(event.data), BOUNDS.receipts);
  next.lastFailureAt = event.time;
  next.serverDelay = error === null ? null : serverDelayOf(error.headers, epochMs(event.time));
  if (isFloored(next.failureClass)) {
    next.status = next.status === 'open' && !spent ? 'open' : 'blocked';
    return true;
  }
  if (landsHere && (next.failureClass === 'ambiguous_effect' || classification.reason === EMPTY_RESULT_REASON)) {
    // The retry's effect is unknown again: back to waiting, whatever the budget says. A key the
    // empty-result verifier reclassified (its corrected query came back empty again) waits too.
    if (next.failureClass !== 'ambiguous_effect') {
      next.reclassification = {
        from: failureClassOf(next),
        to: 'ambiguous_effect',
        by: `outcome:${classification.reason}`,
        eventId: event.id,
        at: event.time,
      };
    }
    next.failureClass = 'ambiguous_effect';
    next.status = 'awaiting_verification';
    next.verifierRequired = classification.reason === EMPTY_RESULT_REASON ? 'empty_result' : 'read_after_write';
    next.verifierStatus = 'pending';
    next.finding = null;
    return true;
  }
  const status: FailureStatus = next.status === 'open' && spent ? 'exhausted' : next.status;
  next.status = status;
  if (landsHere && next.failureClass === 'missing_resource') {
    const known = next.missingResourceIds.includes(call.resourceId);
    // The same unresolved identifier failing again tells nothing new: a resolution found meanwhile stands.
    if (known && VERIFIER_RULES.missing_resource.violationOf(next, call) !== null) return true;
    if (!known)
      next.missingResourceIds = appendBounded(next.missingResourceIds, call.resourceId, BOUNDS.missingResourceIds);
    next.verifierStatus = 'pending';
    next.resolvedResourceId = null;
    next.finding = null;
  }
  return true;
}
