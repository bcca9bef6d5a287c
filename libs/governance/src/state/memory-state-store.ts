import type { Route } from '../keys/route.js';
import type { FailureState } from '../model.js';

const NONE: readonly FailureState[] = [];

/**
 * Failure states in memory, indexed so an event finds its few candidates without scanning: run
 * keys by run, fleet keys by principal and resource id, any key by id. Used by the reference fold
 * and the benchmark; it only narrows candidates (another tenant's run of the same name may be
 * among them), `projectRouted` still checks every one with `matches`.
 */
export class MemoryStateStore {
  readonly states = new Map<string, FailureState>();
  private readonly byRun = new Map<string, FailureState[]>();
  // A principal can hold many fleet keys (one per denied resource); indexing by resource too keeps
  // a busy principal's every call from testing all of them.
  private readonly byPrincipal = new Map<string, Map<string | null, FailureState[]>>();

  /** The states an event routed like this may touch (a superset of the matching ones). */
  candidates(routed: Route): readonly FailureState[] {
    if (routed.keyId !== null) {
      const state = this.states.get(routed.keyId);
      return state === undefined ? NONE : [state];
    }
    const match = routed.match;
    if (match === null) return NONE;
    const inRun = this.byRun.get(match.run) ?? NONE;
    if (match.kind !== 'call' || match.principal === null) return inRun;
    const forPrincipal = this.byPrincipal.get(match.principal)?.get(match.resourceId) ?? NONE;
    if (forPrincipal.length === 0) return inRun;
    if (inRun.length === 0) return forPrincipal;
    return [...inRun, ...forPrincipal];
  }

  /** Stores a new or changed state (same key id replaces the old version in place). */
  put(state: FailureState): void {
    // One hash lookup instead of has() + set(): a new key is one the map grew by.
    const before = this.states.size;
    this.states.set(state.keyId, state);
    const known = this.states.size === before;
    const bucket = this.bucketOf(state);
    if (bucket === null) return;
    if (!known) bucket.push(state);
    else bucket[indexOf(bucket, state.keyId)] = state;
  }

  private bucketOf(state: FailureState): FailureState[] | null {
    const { scope, run, principal, resourceId } = state.key;
    if (scope === 'run') {
      if (run === null) return null;
      let bucket = this.byRun.get(run);
      if (bucket === undefined) this.byRun.set(run, (bucket = []));
      return bucket;
    }
    if (principal === null) return null;
    let byResource = this.byPrincipal.get(principal);
    if (byResource === undefined) this.byPrincipal.set(principal, (byResource = new Map()));
    let bucket = byResource.get(resourceId);
    if (bucket === undefined) byResource.set(resourceId, (bucket = []));
    return bucket;
  }
}

/** Where the state with `keyId` sits in a bucket (it is there: put() added it when the key was new). */
function indexOf(bucket: readonly FailureState[], keyId: string): number {
  for (let i = 0; i < bucket.length; i += 1) if (bucket[i]!.keyId === keyId) return i;
  return -1;
}
