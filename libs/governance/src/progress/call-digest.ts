import type { ToolCall, ToolCallOutcomeData } from '@tokencircuit/contracts';
import { argumentsFingerprintWithout } from '../support/arguments-fingerprint.js';
import type { NoProgressPolicy } from './progress-policy.js';

const NONE: readonly string[] = [];

/** The volatile argument names of a tool: the policy's "*" list and the tool's own. */
export function volatileOf(policy: NoProgressPolicy, tool: string): readonly string[] {
  const all = policy.volatileFields['*'] ?? NONE;
  const own = Object.hasOwn(policy.volatileFields, tool) ? policy.volatileFields[tool]! : NONE;
  return own.length === 0 ? all : all.length === 0 ? own : [...all, ...own];
}

/**
 * The call's identity for the no_progress detectors: the structural fingerprint of its arguments
 * without the fields the policy marks volatile (request ids, timestamps), so two calls that differ only
 * there count as the same call. A pagination cursor that advances is a different call; one that does
 * not is the same, and needs no marking.
 */
export function callDigestOf(call: ToolCall, policy: NoProgressPolicy): string {
  // The volatile fields are skipped during the one walk that hashes the arguments: no copy without them.
  return argumentsFingerprintWithout(call.arguments, volatileOf(policy, call.tool));
}

/**
 * The call digest of a successful outcome: the producer's `argumentsDigest` when it left out exactly the
 * fields this policy marks volatile for the tool (the same walk over the same stored arguments gives the same
 * text), else callDigestOf. A producer computes it once per call where the call happens, so the fleet's fold
 * does not walk every success's arguments again; one that sent a digest of other arguments only hides its own
 * repeats, as one that sent no result digest does.
 */
export function outcomeCallDigestOf(data: ToolCallOutcomeData, policy: NoProgressPolicy): string {
  const given = data.argumentsDigest;
  const volatile = volatileOf(policy, data.call.tool);
  if (given !== undefined && sameNames(given.without, volatile)) return given.digest;
  return argumentsFingerprintWithout(data.call.arguments, volatile);
}

/** Whether the two lists name the same members (`given` names each once; `volatile` may repeat one). */
function sameNames(given: readonly string[], volatile: readonly string[]): boolean {
  // The producer's list is usually the policy's in the policy's order: one comparison per name.
  if (given.length === volatile.length) {
    let i = 0;
    while (i < given.length && given[i] === volatile[i]) i += 1;
    if (i === given.length) return true;
  }
  for (const name of given) if (!volatile.includes(name)) return false;
  for (const name of volatile) if (!given.includes(name)) return false;
  return true;
}
