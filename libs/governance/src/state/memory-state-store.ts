import type { Route } from '../keys/route.js';
import type { FailureState } from '../model.js';

const NONE: readonly FailureState[] = [];

/**
 * Failure states in memory, indexed the way the projector loads rows: run keys by (tenant, run),
 * fleet keys by (tenant, principal), any key by id. Used by the reference fold and the benchmark;
 * it only narrows candidates, `projectRouted` still checks every one with `matches`.
 */
export class MemoryStateStore {
  readonly states = new Map<string, FailureState>();
  private readonly byCoordinate = new Map<string, FailureState[]>();

  /** The states an event routed like this may touch (a superset of the matching ones). */
  candidates(routed: Route): readonly FailureState[] {
    if (routed.keyId !== null) {
      const state = this.states.get(routed.keyId);
      return state === undefined ? NONE : [state];
    }
    const match = routed.match;
    if (match === null) return NONE;
    const inRun = this.byCoordinate.get(runCoordinate(routed.tenant, match.run)) ?? NONE;
    const forPrincipal =
      match.principal === null ? NONE : (this.byCoordinate.get(fleetCoordinate(routed.tenant, match.principal)) ?? NONE);
    if (forPrincipal.length === 0) return inRun;
    if (inRun.length === 0) return forPrincipal;
    return [...inRun, ...forPrincipal];
  }

  /** Stores a new or changed state (same key id replaces the old version in place). */
  put(state: FailureState): void {
    const known = this.states.has(state.keyId);
    this.states.set(state.keyId, state);
    const coordinate = coordinateOf(state);
    if (coordinate === null) return;
    const bucket = this.byCoordinate.get(coordinate);
    if (bucket === undefined) {
      this.byCoordinate.set(coordinate, [state]);
    } else if (!known) {
      bucket.push(state);
    } else {
      const at = bucket.findIndex((s) => s.keyId === state.keyId);
      bucket[at] = state;
    }
  }
}

const runCoordinate = (tenant: string, run: string): string => `r\u0001${tenant}\u0001${run}`;
const fleetCoordinate = (tenant: string, principal: string): string => `p\u0001${tenant}\u0001${principal}`;

function coordinateOf(state: FailureState): string | null {
  const { scope, tenant, run, principal } = state.key;
  if (scope === 'run') return run === null ? null : runCoordinate(tenant, run);
  return principal === null ? null : fleetCoordinate(tenant, principal);
}
