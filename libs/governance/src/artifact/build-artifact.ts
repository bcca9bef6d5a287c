import type { DiagnosticArtifact } from '@tokencircuit/contracts';
import type { TokenCircuitConfig } from '../config/config.js';
import { policyVersion } from '../config/policy-version.js';
import type { Decision, FailureState } from '../model.js';
import { deepFreeze, type DeepReadonly } from '../support/deep-freeze.js';

/** The RFC's verifier column in words, for classes whose requirement is not a verifier event. */
const REQUIREMENT_IN_WORDS: Readonly<Partial<Record<FailureState['failureClass'], string>>> = {
  validation: 'args_structurally_changed',
  no_progress: 'call_or_result_changes',
};

/**
 * The immutable evidence behind a decision: the raw key fields (never only a hash), class, budget
 * state, receipts, justification, policy version and causing events. Deeply frozen; the same state,
 * decision and policy always give the same bytes.
 */
export function buildArtifact(
  state: FailureState,
  decision: Decision,
  config: TokenCircuitConfig,
): DeepReadonly<DiagnosticArtifact> {
  const k = state.key.equivalenceKey;
  return deepFreeze({
    equivalence_key: {
      tool_name: k.tool_name,
      resource_class: k.resource_class,
      auth_scope: k.auth_scope,
      error_class: k.error_class,
      side_effect_boundary: k.side_effect_boundary,
    },
    key_id: state.keyId,
    scope: state.key.scope,
    tenant: state.key.tenant,
    run: state.key.run,
    principal: state.key.principal,
    resource_id: state.key.resourceId,
    failure_class: state.failureClass,
    budget: state.budget + state.overrideGrants,
    budget_exhausted: state.status === 'exhausted' || state.status === 'blocked',
    retry_count: state.retryCount,
    sample_receipts: state.lastReceipts.slice(-3),
    safety_justification: decision.safetyJustification,
    next_allowed_action: decision.nextAction,
    verifier_required: state.verifierRequired ?? REQUIREMENT_IN_WORDS[state.failureClass] ?? null,
    verifier_status: state.verifierStatus,
    side_effect_evidence: [...state.sideEffectEvidence],
    classification_reason: state.classificationReason,
    policy_version: policyVersion(config),
    state_version: state.version,
    causing_event_ids: [...state.causingEventIds],
    ...reclassificationOf(state),
    ...noProgressOf(state),
  });
}

/** The artifact's no_progress evidence, only on a no_progress key that detected a loop. */
function noProgressOf(state: FailureState): Pick<DiagnosticArtifact, 'no_progress'> {
  const t = state.progress;
  if (t === undefined || t.detector === null || t.thresholds === null) return {};
  const newest = t.entries[t.entries.length - 1]!;
  const inLoop =
    t.detector === 'cycle'
      ? t.entries.slice(-t.cycle!.length * Math.min(t.repeats, 2))
      : t.entries.filter((e) => e.callDigest === newest.callDigest && e.resultDigest === newest.resultDigest);
  return {
    no_progress: {
      detector: t.detector,
      repeats: t.repeats,
      advise_at: t.thresholds.adviseAt,
      block_at: t.thresholds.blockAt,
      read_only: t.read,
      calls: inLoop.slice(-8).map((e) => ({
        call_id: e.callId,
        tool: state.key.equivalenceKey.tool_name,
        call_digest: e.callDigest,
        result_digest: e.resultDigest ?? '',
      })),
      cycle: t.cycle === null ? null : [...t.cycle],
      delay_ms: t.delayMs,
    },
  };
}

/** The artifact's reclassification member, only when there is one (old artifacts have none and keep their hash). */
function reclassificationOf(state: FailureState): Pick<DiagnosticArtifact, 'reclassification'> {
  const r = state.reclassification;
  return r === undefined
    ? {}
    : { reclassification: { from: r.from, to: r.to, by: r.by, event_id: r.eventId, at: r.at } };
}
