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
import { transition, withPatch } from './transition.js';
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
  let patch: Partial<FailureState> | null = null;
  if (verdict.counts) patch = attemptPatch(state, call, verdict.violation, event.id, event.time);
  const counted = verdict.counts || state.seenCallIds.includes(call.callId) || facts?.landsHere === true;
  if (event.type === 'tool_call.outcome' && facts !== null && counted) {
    const current: FailureState = patch ? withPatch(state, patch) : state;
    const outcomePatch =
      facts.classification === null
        ? successPatch(current)
        : failurePatch(current, event, facts.classification, facts.landsHere);
    if (outcomePatch !== null) patch = { ...patch, ...outcomePatch };
  }
  return patch === null ? state : transition(state, event, patch);
}

/** Another run's call at a fleet key, folded after the episode it happened before. */
function earlierAtFleetKey(event: ToolCallRequested | ToolCallOutcome, state: FailureState): boolean {
  return state.key.scope === 'fleet' && epochMs(event.time) < epochMs(state.openedAt);
}

function attemptPatch(
  state: FailureState,
  call: ToolCall,
  violation: ViolationKind | null,
  eventId: string,
  at: string,
): Partial<FailureState> {
  const fingerprint = tracksArguments(state) ? argumentsFingerprint(call.arguments) : null;
  return {
    retryCount: state.retryCount + 1,
    seenCallIds: appendKeepingFirst(state.seenCallIds, call.callId, BOUNDS.seenCallIds),
    lastCall: { agent: call.agent, run: call.run, callId: call.callId },
    legitimateAttempts: state.legitimateAttempts + (violation === null ? 1 : 0),
    violations: state.violations + (violation === null ? 0 : 1),
    lastViolation: violation === null ? state.lastViolation : { kind: violation, callId: call.callId, eventId, at },
    argFingerprints:
      fingerprint === null || state.argFingerprints.includes(fingerprint)
        ? state.argFingerprints
        : appendBounded(state.argFingerprints, fingerprint, BOUNDS.argFingerprints),
  };
}

/** A counted call succeeded: the key's problem is gone, unless a verifier still owes an answer. */
function successPatch(state: FailureState): Partial<FailureState> | null {
  if (state.status === 'awaiting_verification') return null;
  return { status: 'resolved' };
}

/** A counted call failed (in this key's class or another): record it and spend the budget. */
function failurePatch(
  state: FailureState,
  event: ToolCallOutcome,
  classification: Classification,
  landsHere: boolean,
): Partial<FailureState> {
  const { call, error } = event.data;
  const base: Partial<FailureState> = {
    failures: state.failures + 1,
    lastReceipts: appendBounded(state.lastReceipts, receiptFor(event.data), BOUNDS.receipts),
    lastFailureAt: event.time,
    serverDelay: error === null ? null : serverDelayOf(error.headers, epochMs(event.time)),
  };
  const spent = allowanceSpent(state);
  if (isFloored(state.failureClass)) {
    return { ...base, status: state.status === 'open' && !spent ? 'open' : 'blocked' };
  }
  if (landsHere && (state.failureClass === 'ambiguous_effect' || classification.reason === EMPTY_RESULT_REASON)) {
    // The retry's effect is unknown again: back to waiting, whatever the budget says. A key the
    // empty-result verifier reclassified (its corrected query came back empty again) waits too.
    return {
      ...base,
      ...(state.failureClass === 'ambiguous_effect'
        ? {}
        : {
            reclassification: {
              from: failureClassOf(state),
              to: 'ambiguous_effect',
              by: `outcome:${classification.reason}`,
              eventId: event.id,
              at: event.time,
            },
          }),
      failureClass: 'ambiguous_effect',
      status: 'awaiting_verification',
      verifierRequired: classification.reason === EMPTY_RESULT_REASON ? 'empty_result' : 'read_after_write',
      verifierStatus: 'pending',
      finding: null,
    };
  }
  const status: FailureStatus = state.status === 'open' && spent ? 'exhausted' : state.status;
  if (landsHere && state.failureClass === 'missing_resource') {
    const known = state.missingResourceIds.includes(call.resourceId);
    // The same unresolved identifier failing again tells nothing new: a resolution found meanwhile stands.
    if (known && VERIFIER_RULES.missing_resource.violationOf(state, call) !== null) return { ...base, status };
    return {
      ...base,
      status,
      missingResourceIds: known
        ? state.missingResourceIds
        : appendBounded(state.missingResourceIds, call.resourceId, BOUNDS.missingResourceIds),
      verifierStatus: 'pending',
      resolvedResourceId: null,
      finding: null,
    };
  }
  return { ...base, status };
}
