import type { DecisionLevel, NextAction } from '@tokencircuit/contracts';
import { backoffFor } from '../backoff/backoff.js';
import type { TokenCircuitConfig } from '../config/config.js';
import type { Decision, FailureState } from '../model.js';
import { allowanceOf, situationOf } from '../state/allowance.js';
import { factsOf } from './facts.js';

/**
 * The verdict on a key under a policy: who must be told, how loudly, what the next allowed action
 * is and why that is safe or unsafe. Pure: the backoff comes from the state, not the clock.
 */
export function decide(state: FailureState, config: TokenCircuitConfig): Decision {
  const chosen = verdictOf(state);
  const acknowledged = chosen.level === 'page' && state.acknowledgedSituation === situationOf(state);
  const level: DecisionLevel = acknowledged ? 'block' : chosen.level;
  const operatorNote = acknowledged
    ? ` Acknowledged by ${state.operator?.by ?? 'an operator'}: not paging again for this situation.`
    : '';
  return {
    intervene: chosen.intervene,
    level,
    nextAction: chosen.nextAction,
    backoff: chosen.retry ? backoffFor(state, config) : null,
    safetyJustification: `${factsOf(state)} ${chosen.why}${overrideNote(state, config)}${operatorNote}`,
  };
}

/** The RFC's "next allowed action" for a key right now. */
export const nextAllowedAction = (state: FailureState, config: TokenCircuitConfig): NextAction =>
  decide(state, config).nextAction;

interface Verdict {
  readonly intervene: boolean;
  readonly level: DecisionLevel;
  readonly nextAction: NextAction;
  readonly retry: boolean;
  readonly why: string;
}

const verdict = (level: DecisionLevel, nextAction: NextAction, why: string, retry = false): Verdict => ({
  intervene: true,
  level,
  nextAction,
  retry,
  why,
});

function verdictOf(s: FailureState): Verdict {
  if (s.status === 'resolved') return resolvedVerdict(s);
  const left = Math.max(0, allowanceOf(s) - s.retryCount);
  switch (s.failureClass) {
    case 'transient':
      return s.status === 'exhausted'
        ? verdict(
            'block',
            'forced_summary',
            'The retry budget is spent and the failure persists; more retries only add load. Summarise and stop.',
          )
        : verdict(
            'advise',
            'retry_with_backoff',
            `Safe to retry the same intent after the backoff (${left} left; jitter spreads the fleet's retries, server delays are honoured).`,
            true,
          );
    case 'validation':
      if (s.status === 'exhausted') {
        return verdict(
          'block',
          'forced_summary',
          'The one repair attempt did not produce valid arguments; another guess is a loop. Summarise and stop.',
        );
      }
      return s.violations > 0
        ? verdict(
            'block',
            'correct_arguments',
            'The arguments repeated ones the tool already rejected; identical arguments cannot succeed. Change them structurally or stop.',
          )
        : verdict(
            'advise',
            'correct_arguments',
            `Ask the model or user for corrected arguments; only structurally different arguments count (${left} attempt(s) left).`,
          );
    case 'permission':
      return s.status === 'open'
        ? verdict(
            'advise',
            'stop_request_authorization',
            `An audited override allows ${left} more attempt(s); the safe path is still to request the missing authorization.`,
          )
        : verdict(
            'block',
            'stop_request_authorization',
            'Retrying cannot succeed until access is granted, whatever the query; every agent acting as this principal is stopped. Request authorization.',
          );
    case 'invariant_violation':
      return s.status === 'open'
        ? verdict(
            'advise',
            'fail_closed_page_human',
            `An audited override allows ${left} more attempt(s); a broken invariant still needs a human.`,
          )
        : verdict(
            'page',
            'fail_closed_page_human',
            'An invariant of the system is broken; continuing could spread the damage. Fail closed and page a human.',
          );
    case 'missing_resource':
      return missingResourceVerdict(s, left);
    case 'ambiguous_effect':
      return s.verifierRequired === 'empty_result' ? emptyResultVerdict(s, left) : sideEffectVerdict(s, left);
    default: {
      const exhaustive: never = s.failureClass;
      return exhaustive;
    }
  }
}

function resolvedVerdict(s: FailureState): Verdict {
  if (s.finding === 'effect_applied') {
    return verdict(
      'advise',
      'proceed',
      'Read-after-write verification confirmed the write happened: proceed with its result and do not retry, a retry would duplicate it.',
    );
  }
  const why =
    s.finding === 'empty_valid'
      ? 'The verifier confirmed the empty result is valid.'
      : s.operator !== null && s.operator.eventId === s.causingEventIds[s.causingEventIds.length - 1]
        ? `Resolved by ${s.operator.by} (${s.operator.resolution}).`
        : 'The failure is resolved; nothing stands in the way.';
  return { intervene: false, level: 'advise', nextAction: 'proceed', retry: false, why };
}

function missingResourceVerdict(s: FailureState, left: number): Verdict {
  if (s.status === 'exhausted') {
    return verdict(
      'block',
      'discover_or_confirm_resource',
      'The identifier could not be resolved within budget; guessing more identifiers is a loop. A human must confirm the resource.',
    );
  }
  if (s.verifierStatus === 'passed') {
    const id =
      s.resolvedResourceId === null
        ? 'an operator-confirmed identifier'
        : `the resolved identifier ${s.resolvedResourceId}`;
    return verdict('advise', 'proceed', `The identifier is resolved: retry with ${id} (${left} attempt(s) left).`);
  }
  return verdict(
    'advise',
    'discover_or_confirm_resource',
    'The resource was not found; run a discovery step or get human confirmation before retrying, retrying the same identifier cannot succeed.',
  );
}

function emptyResultVerdict(s: FailureState, left: number): Verdict {
  if (s.status === 'exhausted') {
    return verdict(
      'block',
      'forced_summary',
      'Corrected queries still came back wrong or empty within budget. Summarise what is known and stop.',
    );
  }
  if (s.status === 'open') {
    return verdict(
      'advise',
      'correct_arguments',
      `The verifier says the empty result is not plausible: the query is probably wrong. Correct it (${left} attempt(s) left).`,
    );
  }
  return s.verifierStatus === 'failed' || s.violations > 0
    ? verdict(
        'block',
        'verify_empty_result',
        'The empty result is still unverified; repeating the same query cannot tell valid-empty from a wrong query. Run the empty-result verifier.',
      )
    : verdict(
        'advise',
        'verify_empty_result',
        'An empty result is not success until a verifier says it is valid; do not silently retry.',
      );
}

function sideEffectVerdict(s: FailureState, left: number): Verdict {
  switch (s.status) {
    case 'awaiting_verification':
      if (s.verifierStatus === 'failed' || s.violations > 0) {
        const cause =
          s.violations > 0
            ? 'the write was retried before reconciliation and may now exist twice'
            : 'read-after-write verification could not establish whether the write happened';
        return verdict(
          'page',
          'reconcile_before_retry',
          `Status unknown rather than failed: ${cause}. A human must reconcile.`,
        );
      }
      return verdict(
        'block',
        'reconcile_before_retry',
        'The write may have happened: retrying now risks a duplicate side effect. Verify with a read-after-write first.',
      );
    case 'open':
      return verdict(
        'advise',
        'retry_with_backoff',
        `Verification showed the write did not happen, so one retry is safe (${left} left).`,
        true,
      );
    case 'exhausted':
      return verdict(
        'block',
        'forced_summary',
        'The write was not applied and the retry budget is spent. Summarise and stop.',
      );
    case 'blocked':
      return verdict('block', 'reconcile_before_retry', 'Stopped; reconcile before anything else.');
    case 'resolved':
      return resolvedVerdict(s);
    default: {
      const exhaustive: never = s.status;
      return exhaustive;
    }
  }
}

function overrideNote(s: FailureState, config: TokenCircuitConfig): string {
  const op = s.operator;
  if (op === null || op.unsafeOverride === 'none') return '';
  const audit = config.unsafeOverride;
  const approval = audit
    ? ` (approved by ${audit.approvedBy}${audit.ticket ? `, ticket ${audit.ticket}` : ''}: ${audit.reason})`
    : '';
  return op.unsafeOverride === 'applied'
    ? ` Unsafe override applied by ${op.by} under the policy's audited override${approval}; operator's reason: ${op.reason}.`
    : ` An unsafe override requested by ${op.by} was refused: the policy's unsafeOverride does not name ${s.failureClass}.`;
}
