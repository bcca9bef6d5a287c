import type { DiagnosticArtifact, NextAction } from '@tokencircuit/contracts';

/** The next allowed action for a person: a few words for the one-line summary, and the full instruction. */
export interface NextActionText {
  readonly action: NextAction;
  /** What to do first, in a few words (it ends the summary line). */
  readonly first: string;
  /** What to do, and what the agents may do meanwhile. */
  readonly instruction: string;
}

type Facts = Pick<DiagnosticArtifact, 'principal' | 'resource_id' | 'key_id'> & {
  readonly authScope: string | null;
};

/**
 * Per next allowed action (the RFC's column, docs/cli.md's resolution table), what the person who gets the
 * notification does. The resolutions named are those `tokencircuit resolve --as` takes.
 */
export function nextActionText(action: NextAction, facts: Facts): NextActionText {
  const resource = facts.resource_id ?? 'the resource';
  const principal = facts.principal ?? 'the agent';
  // Key ids hold '|' (a shell pipe): the command is quoted so it can be pasted as it is.
  const resolve = (kind: string) => `npx tokencircuit resolve ${shellQuoted(facts.key_id)} --as ${kind} --reason '…'`;
  switch (action) {
    case 'reconcile_before_retry':
      return {
        action,
        first: 'check whether the write happened',
        instruction:
          `Check in ${resource} whether the write happened (nobody may re-send it before). ` +
          `It did: \`${resolve('effect_confirmed')}\` (a re-send stays refused). ` +
          `It did not: \`${resolve('effect_absent')}\` (one re-send is allowed).`,
      };
    case 'fail_closed_page_human':
      return {
        action,
        first: 'investigate; calls are stopped',
        instruction: `An invariant of ${resource} is broken and calls to it are stopped. Find and repair the cause, then \`${resolve('reset')}\`.`,
      };
    case 'stop_request_authorization':
      return {
        action,
        first: `grant access or keep ${principal} stopped`,
        instruction:
          `${principal} lacks access to ${resource}${facts.authScope ? ` (scope ${facts.authScope})` : ''}; every agent acting as it is stopped there. ` +
          `Grant it, then \`${resolve('auth_granted')}\`; or leave it stopped.`,
      };
    case 'forced_summary':
      return {
        action,
        first: 'review; the agent was told to stop',
        instruction: `The agent was told to summarise and stop calling ${resource}: its budget is spent. Look at why it keeps failing; \`${resolve('reset')}\` lets it try again.`,
      };
    case 'discover_or_confirm_resource':
      return {
        action,
        first: 'confirm the right identifier',
        instruction: `${resource} was not found. Tell the agent the right identifier, or confirm this one exists: \`${resolve('resource_confirmed')}\`.`,
      };
    case 'correct_arguments':
      return {
        action,
        first: 'correct the arguments',
        instruction: `The arguments were rejected; only a structurally different call may run. Help the agent or its user correct them.`,
      };
    case 'verify_empty_result':
      return {
        action,
        first: 'confirm whether empty is right',
        instruction: `${resource} answered empty and nothing has verified that this is right. Confirm it (a verifier or a person), or correct the query.`,
      };
    case 'retry_with_backoff':
      return {
        action,
        first: 'nothing yet; it retries after backoff',
        instruction: `The agent may retry the same call after its backoff. Look at ${resource} if it keeps failing.`,
      };
    case 'proceed':
      return { action, first: 'nothing to do', instruction: 'Nothing stands in the way: the agent may proceed.' };
    case 'poll_less_often':
      return {
        action,
        first: 'nothing yet; it polls less often',
        instruction: `The agent keeps polling ${resource} and the result does not change; it was told to wait longer between polls. Look at whatever it waits for if this goes on.`,
      };
    case 'change_approach':
      return {
        action,
        first: 'review; the agent is looping',
        instruction: `The agent keeps making the same calls and getting the same results (no progress). Look at its prompt or tools; \`${resolve('reset')}\` lets it repeat them again.`,
      };
    case 'summarise_and_stop':
      return {
        action,
        first: 'review the spend; the agent was told to wrap up',
        instruction:
          'A spend budget passed a soft threshold; the agent was told to summarise and stop. Raise the budget in the policy if the work is worth it.',
      };
    case 'ask_for_budget_increase':
      return {
        action,
        first: 'raise the budget or let the agent stay stopped',
        instruction:
          'A spend budget reached its hard limit: calls it covers are refused until the budget is raised in the policy or its window ends.',
      };
  }
}

/** One POSIX shell word: single quotes, an inner ' closed, escaped and reopened. */
export const shellQuoted = (text: string): string => `'${text.replace(/'/g, `'\\''`)}'`;
