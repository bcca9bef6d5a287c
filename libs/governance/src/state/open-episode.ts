import type { ToolCallOutcome, VerifierKind, VerifierStatus } from '@tokencircuit/contracts';
import { serverDelayOf } from '../backoff/server-delay.js';
import { budgetFor } from '../config/policy-lookup.js';
import type { TokenCircuitConfig } from '../config/config.js';
import type { Classification, FailureState, FailureStatus, StateKey } from '../model.js';
import { appendBounded, BOUNDS } from '../support/bounded.js';
import { argumentsFingerprint } from '../support/arguments-fingerprint.js';
import { epochMs } from '../support/time.js';
import { tracksArguments } from './allowance.js';
import { receiptFor } from './receipt.js';

export const EMPTY_RESULT_REASON = 'empty_result_unverified';

/**
 * A failure opens an episode of its key: retry count 0, the class's budget from the policy, and the
 * status and verifier requirement the RFC's table gives the class. `previous` is the same key's
 * resolved state when this is a later episode (version and causing events continue from it).
 */
export function openEpisode(
  key: StateKey,
  keyId: string,
  classification: Classification,
  event: ToolCallOutcome,
  config: TokenCircuitConfig,
  previous: FailureState | null,
): FailureState {
  const { call, error } = event.data;
  const failureClass = classification.failureClass;
  const budget = budgetFor(config, call.tool, failureClass);
  const { status, verifierRequired, verifierStatus } = entryOf(classification, budget);
  return {
    keyId,
    key,
    failureClass,
    budget,
    retryCount: 0,
    status,
    verifierRequired,
    verifierStatus,
    lastReceipts: [receiptFor(event.data)],
    classificationReason: classification.reason,
    sideEffectEvidence: classification.sideEffect.evidence,
    causingEventIds: previous ? appendBounded(previous.causingEventIds, event.id, BOUNDS.causingEventIds) : [event.id],
    version: (previous?.version ?? 0) + 1,
    updatedAt: event.time,
    episode: (previous?.episode ?? 0) + 1,
    openedAt: event.time,
    seenCallIds: [call.callId],
    legitimateAttempts: 0,
    violations: 0,
    lastViolation: null,
    failures: 1,
    intentId: call.intentId,
    argFingerprints: tracksArguments({ failureClass, verifierRequired }) ? [argumentsFingerprint(call.arguments)] : [],
    missingResourceIds: failureClass === 'missing_resource' ? [call.resourceId] : [],
    resolvedResourceId: null,
    finding: null,
    lastFailureAt: event.time,
    serverDelay: error === null ? null : serverDelayOf(error.headers, epochMs(event.time)),
    lastCall: { agent: call.agent, run: call.run, callId: call.callId },
    operator: null,
    acknowledgedSituation: null,
    overrideGrants: 0,
  };
}

interface Entry {
  readonly status: FailureStatus;
  readonly verifierRequired: VerifierKind | null;
  readonly verifierStatus: VerifierStatus;
}

/** The RFC table's row for a fresh failure of each class. */
function entryOf(c: Classification, budget: number): Entry {
  switch (c.failureClass) {
    case 'transient':
      return {
        status: budget > 0 ? 'open' : 'exhausted',
        verifierRequired: 'same_verifier',
        verifierStatus: 'pending',
      };
    case 'validation':
      return { status: budget > 0 ? 'open' : 'exhausted', verifierRequired: null, verifierStatus: 'not_required' };
    case 'missing_resource':
      return {
        status: budget > 0 ? 'open' : 'exhausted',
        verifierRequired: 'resource_resolution',
        verifierStatus: 'pending',
      };
    case 'ambiguous_effect':
      // Unknown is not failed: whatever the budget, nothing may happen before the verifier answers.
      return {
        status: 'awaiting_verification',
        verifierRequired: c.reason === EMPTY_RESULT_REASON ? 'empty_result' : 'read_after_write',
        verifierStatus: 'pending',
      };
    case 'permission':
    case 'invariant_violation':
      return { status: budget > 0 ? 'open' : 'blocked', verifierRequired: null, verifierStatus: 'not_required' };
    default: {
      const exhaustive: never = c.failureClass;
      return exhaustive;
    }
  }
}
