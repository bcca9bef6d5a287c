import type { ToolCall } from '@tokencircuit/contracts';
import { preflightSelection, type FailureState } from '@tokencircuit/governance';
import { preflightCoordinates } from './candidate-cache.js';
import { FLEET_LOOPS_TTL_MS } from './fleet-loop-advice.js';

/**
 * When an allowed answer may be reused by the client for another call of the same selection (its run, tool,
 * principal and resource id), until failure_state changes at `coordinates` (GET /v1/preflight/changes relays
 * exactly those) or `maxAgeMs` passes.
 */
export interface PreflightReuse {
  readonly maxAgeMs: number;
  /** The coordinate hashes the answer was read at: a change feed must watch these very ones. */
  readonly coordinates: readonly string[];
}

/**
 * An allowed answer holds for every call of its selection only when nothing at its coordinates could judge one
 * call differently from another: no failure state there at all (a state's verdict depends on the call's intent,
 * attempt and time), no spend budget covering it (each call reserves), no fleet loop advice (per arguments).
 * The fleet's loops are re-read every FLEET_LOOPS_TTL_MS without a notification, so the reuse ends as often.
 */
export function preflightReuse(
  tenant: string,
  call: ToolCall,
  answer: { readonly allow: boolean; readonly budget: unknown; readonly advice: unknown },
  states: readonly FailureState[],
  changeFeed: boolean,
): PreflightReuse | null {
  if (!changeFeed || !answer.allow || states.length > 0 || answer.budget !== null || answer.advice !== null) return null;
  const selection = preflightSelection(tenant, call);
  return {
    maxAgeMs: FLEET_LOOPS_TTL_MS,
    coordinates: preflightCoordinates(tenant, selection.runKeys!.run, selection.fleetKeys?.principal ?? null),
  };
}
