import { candidateSelection, isSelected, type CandidateSelection } from '../keys/candidate-selection.js';
import type { Route } from '../keys/route.js';
import type { FailureState } from '../model.js';
import type { ProgressMemories, ProgressMemory, ProgressMemoryWrite } from '../progress/progress-memory.js';

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

  /** Applies a projection's memory write: keeps the new memory, or drops the one its key was opened from. */
  remember(write: ProgressMemoryWrite | null): void {
    if (write === null) return;
    const { id, memory } = write;
    if (memory === null) {
      this.memories.delete(id);
      return;
    }
    // One hash operation per success: an update keeps its place in the Map's order (creation order).
    this.memories.set(id, memory);
    if (this.memories.size > this.memoryCapacity) this.memories.delete(this.memories.keys().next().value!);
  }

  private readonly runKeys = new Map<string, FailureState[]>();
  // A principal can hold many fleet keys (one per denied resource); indexing by resource too keeps
  // a busy principal's every call from testing all of them.
  private readonly fleetKeys = new Map<string, Map<string | null, FailureState[]>>();

  /** The states an event routed like this may touch. */
  candidates(routed: Route): readonly FailureState[] {
    return this.selected(candidateSelection(routed));
  }

  /** The states at a selection's coordinates (isSelected, without scanning). */
  selected(selection: CandidateSelection): readonly FailureState[] {
    if (selection.keyId !== null) {
      const state = this.states.get(selection.keyId);
      return state === undefined || !isSelected(state, selection) ? NONE : [state];
    }
    const { tenant, runKeys, fleetKeys } = selection;
    const inRun = runKeys === null ? NONE : (this.runKeys.get(runIndex(tenant, runKeys.run, runKeys.tool)) ?? NONE);
    const inFleet =
      fleetKeys === null
        ? NONE
        : (this.fleetKeys.get(fleetIndex(tenant, fleetKeys.principal))?.get(fleetKeys.resourceId) ?? NONE);
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
      const index = runIndex(tenant, run, equivalenceKey.tool_name);
      let bucket = this.runKeys.get(index);
      if (bucket === undefined) this.runKeys.set(index, (bucket = []));
      return bucket;
    }
    if (principal === null) return null;
    const index = fleetIndex(tenant, principal);
    let byResource = this.fleetKeys.get(index);
    if (byResource === undefined) this.fleetKeys.set(index, (byResource = new Map()));
    let bucket = byResource.get(resourceId);
    if (bucket === undefined) byResource.set(resourceId, (bucket = []));
    return bucket;
  }
}

// Length-prefixed, so no choice of characters in a tenant, run or principal can make two coordinates one.
const runIndex = (tenant: string, run: string, tool: string): string =>
  `${tenant.length}:${tenant}${run.length}:${run}${tool}`;
const fleetIndex = (tenant: string, principal: string): string => `${tenant.length}:${tenant}${principal}`;

/** Where the state with `keyId` sits in a bucket (it is there: put() added it when the key was new). */
function indexOf(bucket: readonly FailureState[], keyId: string): number {
  for (let i = 0; i < bucket.length; i += 1) if (bucket[i]!.keyId === keyId) return i;
  return -1;
}
