import type { FailureState } from '@tokencircuit/governance';
import type { StateCoordinates } from '@tokencircuit/storage';

/**
 * The failure states this projector last read or committed, by key id, bounded to the `capacity` used last.
 *
 * A projector transaction's candidate load names the cached keys of its coordinates with the version it holds
 * (`known`); Postgres then sends a state document only for a key whose stored version is another, and the
 * cached state stands in for the others. At 1,000 events/s a transaction of ≈ 20 records loaded ≈ 160 state
 * documents (≈ 220 kB) that Postgres sent and this process parsed, the largest statement of the write path.
 *
 * Sound for the reason the outbox's ids are (`<key id>@v<version>`): a key's version grows with every transition
 * and only the projector writes failure_state, so a key id and a version name one state. The comparison runs under
 * the coordinate locks the load holds, against what the last writer committed, so another projector process
 * writing the same keys (a fleet key's principal spans partitions) only makes a cached state miss. Only committed
 * states are remembered (the caller's job: after COMMIT), and of two versions of a key the later one is kept.
 * Cached states are shared with the fold, which never changes a state in place (copyOf, then transitioned).
 */
export class CandidateStateCache {
  /** In the order last used: the first is the next to go. */
  private readonly byKeyId = new Map<string, FailureState>();
  /** Key ids by the coordinates a load selects them by (the run, and for fleet keys the principal's resource). */
  private readonly byCoordinate = new Map<string, Set<string>>();

  constructor(
    readonly capacity: number,
    /** Deep-freeze what is cached, so a spec sees any change in place fail (never in production: it costs a walk). */
    private readonly freeze = false,
  ) {
    if (!Number.isInteger(capacity) || capacity < 0) throw new RangeError(`capacity ${capacity}: a whole number ≥ 0`);
  }

  get size(): number {
    return this.byKeyId.size;
  }

  /** The cached states a load at these coordinates selects, by key id. */
  known(at: StateCoordinates): Map<string, FailureState> {
    const found = new Map<string, FailureState>();
    if (this.byKeyId.size === 0) return found;
    const add = (keyIds: Iterable<string> | undefined) => {
      for (const keyId of keyIds ?? []) {
        const state = this.byKeyId.get(keyId);
        if (state !== undefined) found.set(keyId, state);
      }
    };
    for (const [tenant, run, tool] of at.runTools) add(this.byCoordinate.get(runCoordinate(tenant, run, tool)));
    for (const [tenant, principal, resourceId] of at.fleetResources)
      add(this.byCoordinate.get(fleetCoordinate(tenant, principal, resourceId)));
    add(at.keyIds);
    return found;
  }

  /** Committed states (read under the locks, or written by a transaction that has committed). */
  remember(states: Iterable<FailureState>): void {
    if (this.capacity === 0) return;
    for (const state of states) {
      const held = this.byKeyId.get(state.keyId);
      const latest = held !== undefined && held.version > state.version ? held : state;
      if (held === undefined) for (const coordinate of coordinatesOf(state)) this.index(coordinate, state.keyId);
      this.byKeyId.delete(state.keyId);
      this.byKeyId.set(state.keyId, latest === state && this.freeze ? deepFreeze(state) : latest);
    }
    for (const [keyId, state] of this.byKeyId) {
      if (this.byKeyId.size <= this.capacity) break;
      this.byKeyId.delete(keyId);
      for (const coordinate of coordinatesOf(state)) {
        const keys = this.byCoordinate.get(coordinate);
        keys?.delete(keyId);
        if (keys?.size === 0) this.byCoordinate.delete(coordinate);
      }
    }
  }

  private index(coordinate: string, keyId: string): void {
    const keys = this.byCoordinate.get(coordinate);
    if (keys === undefined) this.byCoordinate.set(coordinate, new Set([keyId]));
    else keys.add(keyId);
  }
}

// The columns loadCandidateStates matches: a key's run and tool (whatever its scope), a fleet key's principal and
// resource id (null: the keys that name none). JSON arrays: identifiers may hold any character.
const runCoordinate = (tenant: string, run: string, tool: string) => JSON.stringify(['r', tenant, run, tool]);
const fleetCoordinate = (tenant: string, principal: string, resourceId: string | null) =>
  JSON.stringify(['f', tenant, principal, resourceId]);

function coordinatesOf(state: FailureState): string[] {
  const { key } = state;
  const coordinates: string[] = [];
  if (key.run !== undefined && key.run !== null)
    coordinates.push(runCoordinate(key.tenant, key.run, key.equivalenceKey.tool_name));
  if (key.scope === 'fleet' && key.principal !== undefined && key.principal !== null)
    coordinates.push(fleetCoordinate(key.tenant, key.principal, key.resourceId ?? null));
  return coordinates;
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const member of Object.values(value)) deepFreeze(member);
  }
  return value;
}
