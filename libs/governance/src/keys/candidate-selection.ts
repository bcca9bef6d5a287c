import type { ToolCall } from '@tokencircuit/contracts';
import type { FailureState } from '../model.js';
import { callMatcher, matches, type KeyMatcher } from './key-matcher.js';
import type { Route } from './route.js';
import { guardsIntent } from '../state/resolution-meaning.js';

/**
 * Where the failure states an event (or a preflight) may touch lie, as index coordinates: the one
 * candidate rule that the memory store, the projector's load and the preflight read select by. Every
 * key `matches` accepts lies here; a store may return more (a coarser index prefix), never less, and
 * the core's own filter (`matches`) decides among what it returns.
 */
export interface CandidateSelection {
  readonly tenant: string;
  /** An operator resolution: the one key it names. */
  readonly keyId: string | null;
  /** A call or a verifier result: run-scoped keys of its run and tool. */
  readonly runKeys: { readonly run: string; readonly tool: string } | null;
  /** A call that names a principal: fleet-scoped keys of that principal and resource id (null: keys naming none). */
  readonly fleetKeys: { readonly principal: string; readonly resourceId: string | null } | null;
  /**
   * 'all' for the fold (a failure after a resolution reopens the same key). A preflight judges by
   * 'effect_applied' resolved keys only (guardsIntent: a confirmed or once re-sent write must not be
   * repeated): a long run has many others.
   */
  readonly resolved: 'all' | 'effect_applied';
}

const NOWHERE = { keyId: null, runKeys: null, fleetKeys: null, resolved: 'all' } as const;

/** The candidates of one routed event. */
export function candidateSelection(routed: Pick<Route, 'tenant' | 'keyId' | 'match'>): CandidateSelection {
  if (routed.keyId !== null) return { ...NOWHERE, tenant: routed.tenant, keyId: routed.keyId };
  if (routed.match === null) return { ...NOWHERE, tenant: routed.tenant };
  return selectionAt(routed.match, 'all');
}

/** The candidates a preflight of `call` judges it by. */
export const preflightSelection = (tenant: string, call: ToolCall): CandidateSelection =>
  selectionAt(callMatcher(tenant, call), 'effect_applied');

function selectionAt(matcher: KeyMatcher, resolved: CandidateSelection['resolved']): CandidateSelection {
  const runKeys = { run: matcher.run, tool: matcher.tool };
  const fleetKeys =
    matcher.kind === 'call' && matcher.principal !== null
      ? { principal: matcher.principal, resourceId: matcher.resourceId }
      : null;
  return { tenant: matcher.tenant, keyId: null, runKeys, fleetKeys, resolved };
}

/** Whether `state` lies at the selection's coordinates: what every store must return at least. */
export function isSelected(state: FailureState, selection: CandidateSelection): boolean {
  const key = state.key;
  if (key.tenant !== selection.tenant) return false;
  if (selection.resolved === 'effect_applied' && state.status === 'resolved' && !guardsIntent(state)) {
    return false;
  }
  if (state.keyId === selection.keyId) return true;
  const { runKeys, fleetKeys } = selection;
  if (key.scope === 'run')
    return runKeys !== null && key.run === runKeys.run && key.equivalenceKey.tool_name === runKeys.tool;
  return fleetKeys !== null && key.principal === fleetKeys.principal && key.resourceId === fleetKeys.resourceId;
}

/** Whether routing selects this key for the event: the core's own filter among a store's candidates. */
export function concerns(state: FailureState, routed: Route): boolean {
  if (state.key.tenant !== routed.tenant) return false;
  if (routed.keyId !== null) return state.keyId === routed.keyId;
  return routed.match !== null && matches(state.key, routed.match);
}
