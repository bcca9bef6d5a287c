import type { DecisionLevel, NextAction } from '@tokencircuit/contracts';
import { backoffFor } from '../backoff/backoff.js';
import type { TokenCircuitConfig } from '../config/config.js';
import type { Decision, FailureState, ViolationKind } from '../model.js';
import { allowanceOf, situationOf } from '../state/allowance.js';
import { standingViolation, VERIFIER_RULES, violationInWords } from '../state/verifier-rules.js';
import { factsOf } from './facts.js';
import { progressFacts, progressVerdict } from '../progress/progress-verdict.js';
import { situationOfProgress } from '../progress/progress-state.js';

/**
 * The verdict on a key under a policy: who must be told, how loudly, what the next allowed action
 * is and why that is safe or unsafe. Pure: the backoff comes from the state, not the clock.
 */
export function decide(state: FailureState, config: TokenCircuitConfig): Decision {
  if (state.failureClass === 'no_progress') return progressDecision(state);
  return decisionOf(state, verdictOf(state), config);
}

/** A no_progress key's decision: the detectors' verdict; an acknowledged page stays a block. */
function progressDecision(state: FailureState): Decision {
  const v = progressVerdict(state);
  const acknowledged = v.level === 'page' && state.acknowledgedSituation === situationOfProgress(state);
  const operatorNote = acknowledged
    ? ` Acknowledged by ${state.operator?.by ?? 'an operator'}: not paging again for this situation.`
    : '';
  return {
    intervene: v.intervene,
    level: acknowledged ? 'block' : v.level,
    nextAction: v.nextAction,
    backoff: v.backoff,
    safetyJustification: `${progressFacts(state)} ${v.why}${operatorNote}`,
  };
}

/**
 * The verdict on a call that would violate the key's verifier requirement, before it runs: the
 * decision decide() gives once such an attempt is recorded (same level and next action), so
 * preflight and decide cannot disagree. Never below `block`.
 */
export function decideViolation(state: FailureState, kind: ViolationKind, config: TokenCircuitConfig): Decision {
  // Sent, the call would be one more violation: a new situation no acknowledgement covers yet.
  return decisionOf(state, violationVerdict(state, kind, 'This call would not be legitimate', ahead), config, false);
}

function decisionOf(
  state: FailureState,
  chosen: Verdict,
  config: TokenCircuitConfig,
  acknowledgeable = true,
): Decision {
  const acknowledged = acknowledgeable && chosen.level === 'page' && state.acknowledgedSituation === situationOf(state);
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

const LEVELS: readonly DecisionLevel[] = ['advise', 'block', 'page'];
const atLeast = (level: DecisionLevel, floor: DecisionLevel): DecisionLevel =>
  LEVELS.indexOf(level) >= LEVELS.indexOf(floor) ? level : floor;

function verdictOf(s: FailureState): Verdict {
  if (s.status === 'resolved') return resolvedVerdict(s);
  const standing = standingViolation(s);
  return standing === null ? classVerdict(s) : violationVerdict(s, standing, 'The last attempt was not legitimate');
}

/**
 * An attempt that broke the key's verifier requirement (VERIFIER_RULES) is a block whatever the
 * class, with the violation named; an unreconciled write is a page (the side effect may now exist
 * twice). Budget and block violations keep the class's own verdict, raised to at least block.
 */
function violationVerdict(
  s: FailureState,
  kind: ViolationKind,
  subject: string,
  words: (kind: ViolationKind) => string = violationInWords,
): Verdict {
  if (kind === 'over_budget' || kind === 'ignored_block') {
    const base = classVerdict(s);
    return {
      ...base,
      level: atLeast(base.level, 'block'),
      retry: false,
      why: `${subject} (${words(kind)}). ${base.why}`,
    };
  }
  const rule = VERIFIER_RULES[s.failureClass];
  const level: DecisionLevel = kind === 'write_before_reconciliation' ? 'page' : 'block';
  const remedy = rule.remedy(s);
  const duplicate =
    kind === 'write_before_reconciliation'
      ? ' A write retried before reconciliation may now exist twice: a human must reconcile.'
      : '';
  return verdict(
    level,
    rule.afterViolation(s),
    `${subject} (${words(kind)}): it breaks the ${rule.requirement} requirement of ${s.failureClass}. ${remedy[0]!.toUpperCase()}${remedy.slice(1)}.${duplicate}`,
  );
}

/**
 * A call preflight is asked about has not ignored anything yet: it would meet a blocked key or a spent
 * budget (a fresh agent may never have seen the failures). The other kinds describe the call itself.
 */
const ahead = (kind: ViolationKind): string =>
  kind === 'ignored_block'
    ? 'the key is blocked'
    : kind === 'over_budget'
      ? 'the retry budget is spent'
      : violationInWords(kind);

function classVerdict(s: FailureState): Verdict {
  const left = Math.max(0, allowanceOf(s) - s.legitimateAttempts);
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
      return verdict(
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
    case 'no_progress': {
      // decide() hands these to progressDecision; preflight's violation path may still ask.
      const v = progressVerdict(s);
      return { intervene: v.intervene, level: v.level, nextAction: v.nextAction, retry: false, why: v.why };
    }
    default: {
      const exhaustive: never = s.failureClass;
      return exhaustive;
    }
  }
}

function resolvedVerdict(s: FailureState): Verdict {
  if (s.finding === 'effect_applied') {
    const confirmer = effectConfirmer(s);
    return verdict(
      'advise',
      'proceed',
      confirmer === null
        ? 'Read-after-write verification confirmed the write happened: proceed with its result and do not retry, a retry would duplicate it.'
        : `${confirmer} confirmed the write happened (${s.operator!.resolution}: ${s.operator!.reason}): the intent is done; proceed with its result and do not re-send it, a re-send would duplicate it.`,
    );
  }
  const why =
    s.finding === 'empty_valid'
      ? 'The verifier confirmed the empty result is valid.'
      : s.finding === 'effect_resent'
        ? `The one re-send ${s.operator?.by ?? 'an operator'} allowed (effect_absent) was sent; another would duplicate it.`
        : s.finding === 'effect_not_applied' && s.operator?.resolution === 'effect_absent'
          ? `Resolved by ${s.operator.by} (effect_absent: ${s.operator.reason}): the write did not happen; exactly one re-send of the intent is allowed.`
          : s.operator !== null && s.operator.eventId === s.causingEventIds[s.causingEventIds.length - 1]
            ? `Resolved by ${s.operator.by} (${s.operator.resolution}).`
            : 'The failure is resolved; nothing stands in the way.';
  return { intervene: false, level: 'advise', nextAction: 'proceed', retry: false, why };
}

/** The operator whose resolution established the write (null when a verifier did). */
const effectConfirmer = (s: FailureState): string | null =>
  s.operator !== null &&
  (s.operator.resolution === 'effect_confirmed' || s.operator.resolution === 'resource_confirmed')
    ? s.operator.by
    : null;

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
  if (s.finding === 'resource_unresolved') {
    return verdict(
      'advise',
      'discover_or_confirm_resource',
      'The resource-resolution verifier refuted the identifier: discovery found no such resource. Only a human confirmation, or a discovery that resolves another identifier, legitimises a retry.',
    );
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
  return s.verifierStatus === 'failed'
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
      if (s.verifierStatus === 'failed') {
        return verdict(
          'page',
          'reconcile_before_retry',
          'Status unknown rather than failed: read-after-write verification could not establish whether the write happened. A human must reconcile.',
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
