import type { Route } from '../keys/route.js';
import type { FailureState } from '../model.js';

const NONE: readonly FailureState[] = [];

/** tenant → run (or principal) → the states there; nested so a lookup builds no key string. */
type Index = Map<string, Map<string, FailureState[]>>;

/**
 * Failure states in memory, indexed the way the projector loads rows: run keys by (tenant, run),
 * fleet keys by (tenant, principal), any key by id. Used by the reference fold and the benchmark;
 * it only narrows candidates, `projectRouted` still checks every one with `matches`.
 */
export class MemoryStateStore {
  readonly states = new Map<string, FailureState>();
  private readonly byRun: Index = new Map();
  private readonly byPrincipal: Index = new Map();

  /** The states an event routed like this may touch (a superset of the matching ones). */
  candidates(routed: Route): readonly FailureState[] {
    if (routed.keyId !== null) {
      const state = this.states.get(routed.keyId);
      return state === undefined ? NONE : [state];
    }
    const match = routed.match;
    if (match === null) return NONE;
    const inRun = this.byRun.get(routed.tenant)?.get(match.run) ?? NONE;
    const forPrincipal = match.principal === null ? NONE : (this.byPrincipal.get(routed.tenant)?.get(match.principal) ?? NONE);
    if (forPrincipal.length === 0) return inRun;
    if (inRun.length === 0) return forPrincipal;
    return [...inRun, ...forPrincipal];
  }

  /** Stores a new or changed state (same key id replaces the old version in place). */
  put(state: FailureState): void {
    const known = this.states.has(state.keyId);
    this.states.set(state.keyId, state);
    const { scope, tenant, run, principal } = state.key;
    const coordinate = scope === 'run' ? run : principal;
    if (coordinate === null) return;
    const index = scope === 'run' ? this.byRun : this.byPrincipal;
    let inTenant = index.get(tenant);
    if (inTenant === undefined) index.set(tenant, (inTenant = new Map()));
    const bucket = inTenant.get(coordinate);
    if (bucket === undefined) {
      inTenant.set(coordinate, [state]);
    } else if (!known) {
      bucket.push(state);
    } else {
      bucket[bucket.findIndex((s) => s.keyId === state.keyId)] = state;
    }
  }
}
