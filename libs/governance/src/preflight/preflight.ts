import type { ToolCall } from '@tokencircuit/contracts';
import type { TokenCircuitConfig } from '../config/config.js';
import { decide, decideViolation } from '../decide/decide.js';
import { callMatcher, matches } from '../keys/key-matcher.js';
import type { Decision, FailureState } from '../model.js';
import { isReadCall, judgeAttempt } from '../state/judge-attempt.js';
import { guardsIntent } from '../state/resolution-meaning.js';
import { epochMs } from '../support/time.js';
import { denialReason } from './denial-reason.js';
import { progressDenialReason } from '../progress/progress-preflight.js';

/** The answer to "may this call run now?". */
export interface PreflightResult {
  readonly allow: boolean;
  readonly reason: string;
  /** The state that forbids the call (fleet keys first), or null when allowed. */
  readonly blocking: FailureState | null;
  readonly decision: Decision | null;
}

/**
 * Judges a call before it runs against the projected states (any superset of the matching ones).
 * It denies exactly what evolve would record as an illegitimate attempt (so a call preflight allows
 * is never a violation), plus a retry inside its backoff window, plus a repeat of a write that
 * verification or an operator confirmed already happened (or that was re-sent once after an operator found it absent). Fleet keys come first: another
 * agent's permission failure for this principal and resource stops this agent before it tries.
 */
export function preflight(
  states: Iterable<FailureState>,
  tenant: string,
  call: ToolCall,
  config: TokenCircuitConfig,
  now: string,
): PreflightResult {
  const nowMs = epochMs(now, 'now');
  const matcher = callMatcher(tenant, call);
  const atCoordinates = [...states].filter((s) => matches(s.key, matcher));
  const duplicate = atCoordinates.find((s) => writeAlreadyApplied(s, call));
  if (duplicate !== undefined) {
    const denial =
      duplicate.finding === 'effect_resent'
        ? ({ kind: 'already_resent' } as const)
        : ({ kind: 'already_applied' } as const);
    return deny(duplicate, decide(duplicate, config), denialReason(duplicate, call, denial));
  }
  const relevant = atCoordinates
    .filter((s) => s.status !== 'resolved')
    .sort((a, b) => (a.key.scope === b.key.scope ? a.keyId.localeCompare(b.keyId) : a.key.scope === 'fleet' ? -1 : 1));
  for (const state of relevant) {
    if (state.failureClass === 'no_progress') {
      const reason = progressDenialReason(state, call, config, nowMs);
      if (reason !== null) return deny(state, decide(state, config), reason);
      continue;
    }
    const verdict = judgeAttempt(state, call, now);
    if (verdict.counts && verdict.violation !== null) {
      return {
        allow: false,
        reason: denialReason(state, call, { kind: 'violation', violation: verdict.violation }),
        blocking: state,
        decision: decideViolation(state, verdict.violation, config),
      };
    }
    if (!verdict.counts) continue;
    const decision = decide(state, config);
    if (decision.backoff !== null && nowMs < epochMs(decision.backoff.notBefore)) {
      return deny(
        state,
        decision,
        denialReason(state, call, { kind: 'backoff', notBefore: decision.backoff.notBefore }),
      );
    }
  }
  return {
    allow: true,
    reason:
      relevant.length === 0
        ? 'no failure state at these coordinates'
        : 'every matching failure state allows this attempt',
    blocking: null,
    decision: null,
  };
}

/**
 * A write of an intent whose earlier, uncertain write was confirmed applied (by a verifier or an operator),
 * or re-sent once already after an operator found it absent: the duplicate this RFC exists to stop.
 */
const writeAlreadyApplied = (state: FailureState, call: ToolCall): boolean =>
  state.status === 'resolved' && guardsIntent(state) && state.intentId === call.intentId && !isReadCall(call);

/**
 * A denial whose decision is at least a block: a client reading only the level must never be told
 * to go ahead with a call preflight refuses (the key's own verdict may advise, e.g. a retry after
 * its backoff, which is exactly what the denial is about).
 */
function deny(state: FailureState, decision: Decision, reason: string): PreflightResult {
  const level = decision.level === 'advise' ? 'block' : decision.level;
  return {
    allow: false,
    reason,
    blocking: state,
    decision:
      level === decision.level && decision.intervene
        ? decision
        : {
            ...decision,
            intervene: true,
            level,
            safetyJustification: `${decision.safetyJustification} Denied now: ${reason}.`,
          },
  };
}
