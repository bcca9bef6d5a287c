import type { ToolCall } from '@tokencircuit/contracts';
import { argumentsFingerprint } from '../support/arguments-fingerprint.js';
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
  const volatile = volatileOf(policy, call.tool);
  const args = call.arguments;
  if (volatile.length === 0 || !volatile.some((name) => Object.hasOwn(args, name))) return argumentsFingerprint(args);
  const kept: Record<string, unknown> = {};
  for (const name of Object.keys(args)) if (!volatile.includes(name)) kept[name] = args[name];
  return argumentsFingerprint(kept);
}
