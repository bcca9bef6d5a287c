import { candidateSelection, isSelected, type CandidateSelection } from '../keys/candidate-selection.js';
import type { Route } from '../keys/route.js';
import type { FailureState } from '../model.js';
import type { ToolCall } from '@tokencircuit/contracts';
import {
  progressMemoryId,
  type ProgressMemories,
  type ProgressMemory,
  type ProgressMemoryWrite,
} from '../progress/progress-memory.js';
import { isReadCall } from './judge-attempt.js';

const NONE: readonly FailureState[] = [];

/**
 * How many run memories (no_progress rings before a finding) a store keeps: past it, the one created
 * first is forgotten (runs end; the oldest memory is most likely a finished run's), so a run that
 * comes back to such coordinates starts a new ring there. A memory holds at most `window` calls and
 * 20 causing event ids (≈ 1–3 kB), so this caps them near 100–200 MB in one process.
 */
export const PROGRESS_MEMORY_CAPACITY = 65_536;

/**
 * Failure states in memory, indexed by the coordinates of the core's candidate rule
 * (candidateSelection): run keys by tenant, run and tool, fleet keys by tenant, principal and
 * resource id, any key by id. Used by the reference fold, the projector's batch and the benchmark;
 * it returns exactly the selected states, and `projectRouted` still checks each one with `matches`.
 * It also holds the fold's run memories (ProgressMemories), bounded by `memoryCapacity`.
 */
export class MemoryStateStore implements ProgressMemories {
  readonly states = new Map<string, FailureState>();
  /** Run memories by id, in the order they were created (an update keeps its place). */
  readonly memories = new Map<string, ProgressMemory>();

  constructor(private readonly memoryCapacity: number = PROGRESS_MEMORY_CAPACITY) {}

  get(id: string): ProgressMemory | undefined {
    return this.memories.get(id);
  }

  /**
   * progressMemoryIdOfCall(tenant, call), as the very string a kept memory is keyed by: the Map then
   * finds it by identity, where a fresh id (built, flattened, hashed, then compared character by
   * character with the key) cost a digested success more than the detectors' own work.
   */
  idOfCall(tenant: string, call: ToolCall): string {
    const read = isReadCall(call);
    const ids = this.runOf(tenant, call.run)?.memoryIds;
    if (ids !== undefined) {
      for (let i = 0; i < ids.length; i += 1) {
        const at = ids[i]!;
        if (
          at.tool === call.tool &&
          at.resourceClass === call.resourceClass &&
          at.authScope === call.authScope &&
          at.read === read
        )
          return at.id;
      }
    }
    const id = progressMemoryId(tenant, call.run, call.tool, call.resourceClass, call.authScope, read);
    // Indexed only once a memory is kept under it (remember), so an id never kept leaves nothing behind.
    this.built = {
      tenant,
      run: call.run,
      at: { tool: call.tool, resourceClass: call.resourceClass, authScope: call.authScope, read, id },
    };
    return id;
  }

  /** The id idOfCall built last and its coordinates: remember indexes it if a memory is kept under it. */
  private built: { readonly tenant: string; readonly run: string; readonly at: MemoryIdAt } | null = null;

  /** Applies a projection's memory write: keeps the new memory, or drops the one its key was opened from. */
  remember(write: ProgressMemoryWrite | null): void {
    if (write === null) return;
    const { id, memory } = write;
    if (memory === null) {
      this.forget(id);
      return;
    }
    // One hash operation per success: an update keeps its place in the Map's order (creation order).
    const before = this.memories.size;
    this.memories.set(id, memory);
    if (this.memories.size === before) return;
    this.keepId(id);
    if (this.memories.size > this.memoryCapacity) this.forget(this.memories.keys().next().value!);
  }

  private keepId(id: string): void {
    const built = this.built;
    this.built = null;
    // Only the id idOfCall built for its coordinates (the very string): a memory kept under an id a
    // caller brought (e.g. loaded rows) is found by its characters, as before.
    if (built === null || built.at.id !== id) return;
    this.runFor(built.tenant, built.run).memoryIds.push(built.at);
  }

  private forget(id: string): void {
    const memory = this.memories.get(id);
    if (memory === undefined) return;
    this.memories.delete(id);
    const { tenant, run } = memory.origin.key;
    const byRun = run === null ? undefined : this.runs.get(tenant);
    const index = byRun?.get(run!);
    if (index === undefined) return;
    const ids = index.memoryIds;
    const at = ids.findIndex((m) => m.id === id);
    if (at < 0) return;
    ids.splice(at, 1);
    if (ids.length > 0 || index.tools.size > 0) return;
    byRun!.delete(run!);
    if (byRun!.size === 0) this.runs.delete(tenant);
    this.lastTenant = null;
  }

  // Nested by coordinate (tenant, then run and tool, or principal and resource id) rather than one
  // concatenated string per lookup: every call event looks here, and building and hashing a fresh
  // string (plus the selection object) per event cost more than the rest of a success's fold.
  // A run's keys by tool and its memories' ids, in one entry per run: an event's candidates and its
  // memory's id are looked up once.
  private readonly runs = new Map<string, Map<string, RunIndex>>();
  // The run looked up last: a success asks for its candidates, then its memory's id, with the same
  // tenant and run strings. Reset whenever a run's entry is created or deleted.
  private lastTenant: string | null = null;
  private lastRunId: string | null = null;
  private lastRun: RunIndex | undefined = undefined;

  private runOf(tenant: string, run: string): RunIndex | undefined {
    if (run === this.lastRunId && tenant === this.lastTenant) return this.lastRun;
    const index = this.runs.get(tenant)?.get(run);
    this.lastTenant = tenant;
    this.lastRunId = run;
    this.lastRun = index;
    return index;
  }

  private runFor(tenant: string, run: string): RunIndex {
    let byRun = this.runs.get(tenant);
    if (byRun === undefined) this.runs.set(tenant, (byRun = new Map()));
    let index = byRun.get(run);
    if (index === undefined) {
      byRun.set(run, (index = { tools: new Map(), memoryIds: [] }));
      this.lastTenant = null;
    }
    return index;
  }
  // A principal can hold many fleet keys (one per denied resource); indexing by resource too keeps
  // a busy principal's every call from testing all of them.
  private readonly fleetKeys = new Map<string, Map<string, Map<string | null, FailureState[]>>>();

  /** The states an event routed like this may touch: `selected(candidateSelection(routed))`, without building the selection. */
  candidates(routed: Route): readonly FailureState[] {
    if (routed.keyId !== null || routed.match === null) return this.selected(candidateSelection(routed));
    const match = routed.match;
    const inRun = this.runOf(match.tenant, match.run)?.tools.get(match.tool) ?? NONE;
    const inFleet =
      match.kind === 'call' && match.principal !== null
        ? (this.fleetKeys.get(match.tenant)?.get(match.principal)?.get(match.resourceId) ?? NONE)
        : NONE;
    return inFleet.length === 0 ? inRun : inRun.length === 0 ? inFleet : [...inRun, ...inFleet];
  }

  /** The states at a selection's coordinates (isSelected, without scanning). */
  selected(selection: CandidateSelection): readonly FailureState[] {
    if (selection.keyId !== null) {
      const state = this.states.get(selection.keyId);
      return state === undefined || !isSelected(state, selection) ? NONE : [state];
    }
    const { tenant, runKeys, fleetKeys } = selection;
    const inRun = runKeys === null ? NONE : (this.runOf(tenant, runKeys.run)?.tools.get(runKeys.tool) ?? NONE);
    const inFleet =
      fleetKeys === null
        ? NONE
        : (this.fleetKeys.get(tenant)?.get(fleetKeys.principal)?.get(fleetKeys.resourceId) ?? NONE);
    const both = inFleet.length === 0 ? inRun : inRun.length === 0 ? inFleet : [...inRun, ...inFleet];
    return selection.resolved === 'all' ? both : both.filter((state) => isSelected(state, selection));
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
    const { scope, tenant, run, principal, resourceId, equivalenceKey } = state.key;
    if (scope === 'run') {
      if (run === null) return null;
      return bucketIn(this.runFor(tenant, run).tools, equivalenceKey.tool_name);
    }
    if (principal === null) return null;
    return bucketIn(innerOf(innerOf(this.fleetKeys, tenant), principal), resourceId);
  }
}

/** What the store holds for one run: its keys' buckets by tool, and its kept memories' ids. */
interface RunIndex {
  readonly tools: Map<string, FailureState[]>;
  readonly memoryIds: MemoryIdAt[];
}

/** A kept memory's id at its coordinates inside a run (tenant and run are the index's). */
interface MemoryIdAt {
  readonly tool: string;
  readonly resourceClass: string | null;
  readonly authScope: string | null;
  readonly read: boolean;
  readonly id: string;
}

function innerOf<K, V>(outer: Map<string, Map<K, V>>, at: string): Map<K, V> {
  let inner = outer.get(at);
  if (inner === undefined) outer.set(at, (inner = new Map()));
  return inner;
}

function bucketIn<K>(buckets: Map<K, FailureState[]>, at: K): FailureState[] {
  let bucket = buckets.get(at);
  if (bucket === undefined) buckets.set(at, (bucket = []));
  return bucket;
}

/** Where the state with `keyId` sits in a bucket (it is there: put() added it when the key was new). */
function indexOf(bucket: readonly FailureState[], keyId: string): number {
  for (let i = 0; i < bucket.length; i += 1) if (bucket[i]!.keyId === keyId) return i;
  return -1;
}
