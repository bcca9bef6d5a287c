import type { ToolCall } from '@tokencircuit/contracts';
import { argumentsFingerprintWithout } from '../support/arguments-fingerprint.js';
import type { NoProgressPolicy } from './progress-policy.js';

const NONE: readonly string[] = [];

/** The volatile argument names of a tool: the policy's "*" list and the tool's own. */
function volatileOf(policy: NoProgressPolicy, tool: string): readonly string[] {
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
