import type { ToolCall } from '@tokencircuit/contracts';
import type { FailureState, ViolationKind } from '../model.js';
import { epochMs } from '../support/time.js';
import { allowanceOf } from './allowance.js';
import { VERIFIER_RULES } from './verifier-rules.js';

/** Whether a call counts as an attempt in a key and, if it does, whether it is a legitimate one. */
export type AttemptVerdict =
  { readonly counts: false } | { readonly counts: true; readonly violation: ViolationKind | null };

export const NOT_COUNTED: AttemptVerdict = { counts: false };
const LEGITIMATE: AttemptVerdict = { counts: true, violation: null };

/** Reads do not change the world: they are how an unknown write gets reconciled. */
export const isReadCall = (call: ToolCall): boolean =>
  call.effect === 'read' || (call.effect === 'unknown' && /^(GET|HEAD|OPTIONS)$/i.test(call.httpMethod ?? ''));

/**
 * Judges `call` against an unresolved key. Evolve and preflight share this, so a call preflight
 * allows is never recorded as a violation. `time` is the event time (or preflight's `now`).
 */
export function judgeAttempt(state: FailureState, call: ToolCall, time: string): AttemptVerdict {
  if (state.seenCallIds.includes(call.callId)) return NOT_COUNTED;
  // Reading back a write whose effect is unknown is the reconciliation itself, not a retry.
  if (state.verifierRequired === 'read_after_write' && isReadCall(call)) return NOT_COUNTED;
  // A call for another goal is independent work, not a retry of this transient failure. Should it fail the
  // same way, its outcome lands in this key anyway (the key has no intent field) and spends the budget.
  if (state.failureClass === 'transient' && call.intentId !== state.intentId) return NOT_COUNTED;
  const violation = violationOf(state, call, time);
  return violation === null ? LEGITIMATE : { counts: true, violation };
}

function violationOf(state: FailureState, call: ToolCall, time: string): ViolationKind | null {
  if (state.status === 'blocked') return 'ignored_block';
  if (state.status === 'exhausted' || state.legitimateAttempts + 1 > allowanceOf(state)) return 'over_budget';
  if (state.serverDelay !== null && state.status === 'open' && epochMs(time) < epochMs(state.serverDelay.notBefore)) {
    return 'before_server_delay';
  }
  return VERIFIER_RULES[state.failureClass].violationOf(state, call);
}
