import type { Backoff, DiagnosticArtifact, InterventionClass, NextAction } from '@tokencircuit/contracts';

/** What the model is told instead of the artifact: what was stopped and why, then what to do instead. */
export interface StopMessageInput {
  readonly tool: string;
  readonly nextAction: NextAction;
  readonly backoff: Backoff | null;
  readonly artifact: Pick<DiagnosticArtifact, 'failure_class' | 'principal' | 'resource_id' | 'scope'>;
}

// Identifiers come from the application's own tool metadata, but a resource id may be a long path or query.
const MAX_NAME = 64;
const shorten = (text: string): string => (text.length <= MAX_NAME ? text : `${text.slice(0, MAX_NAME - 1)}…`);

function why(input: StopMessageInput): string {
  const { failure_class: failureClass, principal, resource_id: resourceId } = input.artifact;
  const resource = resourceId === null ? 'this resource' : shorten(resourceId);
  const reasons: Record<InterventionClass, string> = {
    transient: `${resource} is failing for now`,
    validation: 'it was called again with arguments that were already rejected',
    permission: `${principal === null ? 'this agent' : shorten(principal)} is not authorized for ${resource}`,
    missing_resource: `${resource} was not found`,
    ambiguous_effect: 'an earlier attempt may already have taken effect',
    invariant_violation: 'it breaks an invariant of the system it calls',
    no_progress: 'the same calls keep returning the same results',
    budget: 'a spend budget it counts against is used up',
  };
  return reasons[failureClass];
}

function instead(input: StopMessageInput): string {
  switch (input.nextAction) {
    case 'retry_with_backoff':
      return input.backoff === null
        ? 'Wait before trying again, or continue without it.'
        : `Do not call it again before ${input.backoff.notBefore}; continue without it meanwhile.`;
    case 'correct_arguments':
      return 'Do not repeat these arguments; correct them or stop.';
    case 'stop_request_authorization':
      return 'Do not retry or rephrase this call; tell the user that access must be granted.';
    case 'discover_or_confirm_resource':
      return 'Do not retry the same identifier; find or confirm the right one first.';
    case 'reconcile_before_retry':
      return 'Do not send it again; check whether the earlier attempt took effect first.';
    case 'fail_closed_page_human':
      return 'A human has been paged; do not retry, and tell the user it needs their attention.';
    case 'verify_empty_result':
      return 'Do not repeat the search; treat the empty result as an answer or confirm it another way.';
    case 'forced_summary':
      return 'Stop calling it; summarize what you have and report the failure.';
    case 'proceed':
      return 'You may go on.';
    case 'poll_less_often':
      return input.backoff === null
        ? 'The result has not changed; wait longer before polling again.'
        : `The result has not changed; do not poll again before ${input.backoff.notBefore}.`;
    case 'change_approach':
      return 'Repeating it will not give a different answer; change approach, or summarize what you have and stop.';
    case 'summarise_and_stop':
      return 'The budget is nearly used up; summarize what you have and stop.';
    case 'ask_for_budget_increase':
      return 'Do not call it again; tell the user the budget must be raised or its window must end.';
  }
}

/**
 * One or two sentences for the model (a few hundred bytes at most, instead of the ~2.5 KB artifact):
 * enough to stop the retry loop and explain it to the user; the application keeps the full artifact.
 */
export function stopMessage(input: StopMessageInput): string {
  const fleet = input.artifact.scope === 'fleet' ? ' (blocked fleet-wide)' : '';
  return `TokenCircuit stopped ${shorten(input.tool)}: ${why(input)}${fleet}. ${instead(input)}`;
}
