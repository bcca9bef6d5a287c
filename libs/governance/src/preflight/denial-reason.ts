import type { ToolCall } from '@tokencircuit/contracts';
import type { FailureState, ViolationKind } from '../model.js';

/**
 * Preflight's one-line reason for a denial: what happened, where, since when and what lifts it, in
 * words an agent (or its developer) that never saw the earlier failures can act on. The violation
 * kinds (`ignored_block`, …) name what a recorded attempt did wrong; a call being asked about has
 * done nothing yet, so the reason describes the key's situation instead. The key id ends the line.
 */
export type Denial =
  | { readonly kind: 'violation'; readonly violation: ViolationKind }
  | { readonly kind: 'backoff'; readonly notBefore: string }
  | { readonly kind: 'already_applied' }
  | { readonly kind: 'already_resent' };

export function denialReason(state: FailureState, call: ToolCall, denial: Denial): string {
  return `${situation(state, call, denial)} [key ${state.keyId}]`;
}

function situation(s: FailureState, call: ToolCall, denial: Denial): string {
  const tool = s.key.equivalenceKey.tool_name;
  const on = resourceOf(s);
  const history = `after ${failures(s)}`;
  if (denial.kind === 'already_applied') {
    const by = confirmedByOperator(s) ? `${s.operator!.by} confirmed it` : 'read-after-write confirmed it';
    return `${whose(s)} write of intent ${call.intentId} to ${tool} on ${on} already took effect (${by}): sending it again would duplicate the side effect`;
  }
  if (denial.kind === 'already_resent') {
    return `${whose(s)} write of intent ${call.intentId} to ${tool} on ${on} was already re-sent once after ${s.operator?.by ?? 'an operator'} found its effect absent: sending it again would duplicate the side effect`;
  }
  if (denial.kind === 'backoff') {
    return `${subject(s)} is backing off ${tool} on ${on} until ${denial.notBefore}, ${history}, the last at ${s.lastFailureAt}`;
  }
  switch (denial.violation) {
    case 'ignored_block':
      return s.key.scope === 'fleet'
        ? `principal ${s.key.principal} is blocked fleet-wide on ${on} since ${s.openedAt}, ${history} of ${tool} (auth scope ${s.key.equivalenceKey.auth_scope}): no agent acting as ${s.key.principal} may try until an operator resolves it`
        : `run ${s.key.run} is blocked on ${tool} (${on}) since ${s.openedAt}, ${history}: nothing may be tried until an operator resolves it`;
    case 'over_budget':
      return `${subject(s)} has spent its retry budget (${s.budget}) for ${tool} on ${on}: ${failures(s)} since ${s.openedAt}, the last at ${s.lastFailureAt}`;
    case 'before_server_delay':
      return `the server asked ${subject(s)} not to retry ${tool} on ${on} before ${s.serverDelay?.notBefore ?? s.lastFailureAt} (${s.serverDelay?.source === 'rate_limit_reset' ? 'rate-limit reset' : 'Retry-After'}), ${history}`;
    case 'intent_changed':
      return `${subject(s)} may retry ${tool} on ${on} only for intent ${s.intentId} (${history}); this call carries intent ${call.intentId}`;
    case 'identical_arguments':
      return `${subject(s)} already sent these exact arguments to ${tool} on ${on} and they failed (${failures(s)} since ${s.openedAt}): only structurally different arguments may be tried`;
    case 'write_before_reconciliation':
      return `${whose(s)} write to ${tool} on ${on} at ${s.lastFailureAt} may have taken effect: reconcile it with a read-after-write before writing again`;
    case 'unverified_empty_retry':
      return `${tool} on ${on} returned an empty result to ${subject(s)} at ${s.lastFailureAt} that no verifier has judged: verify it before repeating the same read`;
    case 'unresolved_identifier':
      return `${tool} on ${on} did not find the resource ${subject(s)} named at ${s.lastFailureAt}: resolve the identifier before retrying`;
    case 'rejected_query_rerun':
      return `the empty-result verifier judged the query ${subject(s)} sent to ${tool} on ${on} wrong: change the query before running it again`;
  }
}

const subject = (s: FailureState): string =>
  s.key.scope === 'fleet' ? `principal ${s.key.principal} (fleet-wide)` : `run ${s.key.run}`;

const whose = (s: FailureState): string =>
  s.key.scope === 'fleet' ? `principal ${s.key.principal}'s` : `run ${s.key.run}'s`;

const resourceOf = (s: FailureState): string =>
  [s.key.equivalenceKey.resource_class, s.key.resourceId].filter((part) => part !== null).join(' ');

const failures = (s: FailureState): string => `${s.failures} ${s.failureClass} failure${s.failures === 1 ? '' : 's'}`;

const confirmedByOperator = (s: FailureState): boolean =>
  s.operator?.resolution === 'effect_confirmed' || s.operator?.resolution === 'resource_confirmed';
