import type { ToolCall } from '@tokencircuit/contracts';
import type { TokenCircuitConfig } from '../config/config.js';
import type { FailureState } from '../model.js';
import { epochMs } from '../support/time.js';
import { callDigestOf } from './call-digest.js';
import { noProgressOf } from './progress-policy.js';
import { isProgressKeyOf } from './progress-state.js';
import { pollBackoff } from './progress-verdict.js';

/** Why preflight refuses a call a no_progress key stands against, or null when the key lets it run. */
export function progressDenialReason(
  state: FailureState,
  call: ToolCall,
  config: TokenCircuitConfig,
  nowMs: number,
): string | null {
  const t = state.progress;
  if (t === undefined || t.level === null || t.detector === null || !isProgressKeyOf(state, call)) return null;
  const digest = callDigestOf(call, noProgressOf(config));
  const newest = t.entries[t.entries.length - 1]!;
  // Only the looping calls are refused: a different call is the change of approach the advice asks for.
  const looping = t.cycle ?? [newest.callDigest];
  if (!looping.includes(digest)) return null;
  const tool = state.key.equivalenceKey.tool_name;
  const where = `[key ${state.keyId}]`;
  if (t.level === 'advise') {
    const backoff = t.detector === 'polling' ? pollBackoff(state) : null;
    if (backoff === null || nowMs >= epochMs(backoff.notBefore)) return null;
    return `run ${state.key.run} polled ${tool} ${t.repeats} times without a change: poll again after ${backoff.notBefore} ${where}`;
  }
  const loop =
    t.detector === 'polling'
      ? `polled ${tool} ${t.repeats} times without a change`
      : t.detector === 'cycle'
        ? `went ${t.repeats} times round a cycle of ${t.cycle!.length} ${tool} calls with unchanged results`
        : `made this ${tool} call ${t.repeats} times with the same result`;
  return `run ${state.key.run} ${loop}: repeating it is not allowed, change approach or summarise and stop ${where}`;
}
