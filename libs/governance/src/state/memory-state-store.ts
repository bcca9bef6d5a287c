import { candidateSelection, isSelected, type CandidateSelection } from '../keys/candidate-selection.js';
import { keyCoordinatesOf } from '../keys/key-id.js';
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
 * resource id, any key by the coordinates in its id. Used by the reference fold, the projector's batch and the benchmark;
 * it returns exactly the selected states, and `projectRouted` still checks each one with `matches`.
 * It also holds the fold's run memories (ProgressMemories), bounded by `memoryCapacity`.
 */
export class MemoryStateStore implements ProgressMemories {
  // Failure states live in their coordinates' buckets only. No table keyed by id is kept on the fold's path:
  // hashing each new key's id (≈ 90 characters) into it, and setting every transition there, bought nothing a
  // fold reads; a key named by its id alone (an operator's resolution) is found by the coordinates in the id.
  /** Key ids in creation order, for `states`. */
  private readonly creation: string[] = [];
  /** By id, built when `states` is first read, then kept current. */
  private byKeyId: Map<string, FailureState> | null = null;
  /** States without coordinates to index them by (a malformed loaded row): by id. */
  private readonly unindexed = new Map<string, FailureState>();

  /** Every state held, by key id, in the order the keys were created (built on first read, then kept current). */
  get states(): ReadonlyMap<string, FailureState> {
    if (this.byKeyId === null) {
      const latest = new Map<string, FailureState>(this.unindexed);
      for (const byRun of this.runs.values())
        for (const index of byRun.values())
          for (const bucket of index.tools.values()) for (const state of bucket) latest.set(state.keyId, state);
      for (const byPrincipal of this.fleetKeys.values())
        for (const byResource of byPrincipal.values())
          for (const bucket of byResource.values()) for (const state of bucket) latest.set(state.keyId, state);
      const byKeyId = new Map<string, FailureState>();
      for (const keyId of this.creation) byKeyId.set(keyId, latest.get(keyId)!);
      this.byKeyId = byKeyId;
    }
    return this.byKeyId;
  }

  /** How many states are held. */
  get stateCount(): number {
    return this.creation.length;
  }

  // Run memories live in their run's index, found by coordinates: a success's lookup (atCall) scans the
  // few memories of its run. No table keyed by id is kept on the fold's path: building and hashing a new
  // memory's id and inserting it into a table of tens of thousands cost the detectors more than the
  // memory's own work (docs/benchmarks.md, issue 30).
  /** Every memory slot in creation order (the capacity forgets the oldest); forgotten ones are skipped. */
  private order: MemorySlot[] = [];
  private orderHead = 0;
  private held = 0;
  /** By id, built only when someone looks a memory up by its id alone (specs, tools), then kept current. */
  private byId: Map<string, MemorySlot> | null = null;
  /** Where atCall looked last: the slot held there, or the coordinates where none is held yet. */
  private lastAt: MemoryCoordinates | null = null;
  private lastSlot: MemorySlot | null = null;

  constructor(private readonly memoryCapacity: number = PROGRESS_MEMORY_CAPACITY) {}

  /** The run memories held, by id, in creation order (a copy: for a fold's result, specs and tools). */
  get memories(): ReadonlyMap<string, ProgressMemory> {
    const memories = new Map<string, ProgressMemory>();
    for (let i = this.orderHead; i < this.order.length; i += 1) {
      const slot = this.order[i]!;
      if (slot.held) memories.set(idOf(slot), slot.memory);
    }
    return memories;
  }

  /** How many run memories are held. */
  get memoryCount(): number {
    return this.held;
  }

  get(id: string): ProgressMemory | undefined {
    return this.slotById(id)?.memory;
  }

  /** get(progressMemoryIdOfCall(tenant, call)), found by the call's coordinates; writeAt writes there. */
  atCall(tenant: string, call: ToolCall): ProgressMemory | undefined {
    const read = isReadCall(call);
    const slot = this.slotAt(tenant, call.run, call.tool, call.resourceClass, call.authScope, read);
    if (slot !== undefined) {
      this.lastAt = this.lastSlot = slot;
      return slot.memory;
    }
    this.lastSlot = null;
    this.lastAt = coordinatesOf(tenant, call.run, call.tool, call.resourceClass, call.authScope, read, null);
    return undefined;
  }

  /** The write of `memory` (null: forget it) at the coordinates atCall looked up last; its id is built when read. */
  writeAt(memory: ProgressMemory | null): ProgressMemoryWrite {
    if (this.lastAt === null)
      throw new Error('MemoryStateStore.writeAt: call atCall first (no coordinates to write at)');
    return new MemoryWrite(this, this.lastAt, this.lastSlot, memory);
  }

  /** Applies a projection's memory write: keeps the new memory, or drops the one its key was opened from. */
  remember(write: ProgressMemoryWrite | null): void {
    if (write === null) return;
    if (write instanceof MemoryWrite && write.store === this) {
      const { slot, at, memory } = write;
      if (slot !== null && slot.held) {
        if (memory === null) this.release(slot);
        else slot.memory = memory;
        return;
      }
      if (memory === null) return;
      const held = this.slotAt(at.tenant, at.run, at.tool, at.resourceClass, at.authScope, at.read);
      if (held !== undefined) held.memory = memory;
      else this.hold(at, memory);
      return;
    }
    // A write made elsewhere (loaded rows, a caller that keys memories by id): found by its id, or placed at
    // the coordinates its memory's origin names.
    const { id, memory } = write;
    if (memory === null) {
      const slot = this.slotById(id);
      if (slot !== undefined) this.release(slot);
      return;
    }
    const { tenant, run, equivalenceKey: k } = memory.origin.key;
    const read = !k.side_effect_boundary;
    const at = run === null ? undefined : this.slotAt(tenant, run, k.tool_name, k.resource_class, k.auth_scope, read);
    if (at !== undefined) {
      at.memory = memory;
      return;
    }
    this.hold(coordinatesOf(tenant, run ?? '', k.tool_name, k.resource_class, k.auth_scope, read, id), memory);
  }

  private slotAt(
    tenant: string,
    run: string,
    tool: string,
    resourceClass: string | null,
    authScope: string | null,
    read: boolean,
  ): MemorySlot | undefined {
    const slots = this.runOf(tenant, run)?.memories;
    if (slots === undefined) return undefined;
    for (let i = 0; i < slots.length; i += 1) {
      const at = slots[i]!;
      if (at.tool === tool && at.resourceClass === resourceClass && at.authScope === authScope && at.read === read)
        return at;
    }
    return undefined;
  }

  private hold(at: MemoryCoordinates, memory: ProgressMemory): void {
    const slot = slotOf(at, memory);
    this.runFor(at.tenant, at.run).memories.push(slot);
    this.order.push(slot);
    this.held += 1;
    this.byId?.set(idOf(slot), slot);
    if (this.held > this.memoryCapacity) this.forgetOldest();
  }

  private slotById(id: string): MemorySlot | undefined {
    if (this.byId === null) {
      this.byId = new Map();
      for (let i = this.orderHead; i < this.order.length; i += 1) {
        const slot = this.order[i]!;
        if (slot.held) this.byId.set(idOf(slot), slot);
      }
    }
    return this.byId.get(id);
  }

  private forgetOldest(): void {
    while (this.orderHead < this.order.length) {
      const slot = this.order[this.orderHead]!;
      this.orderHead += 1;
      if (slot.held) {
        this.release(slot);
        return;
      }
    }
  }

  private release(slot: MemorySlot): void {
    slot.held = false;
    this.held -= 1;
    this.byId?.delete(idOf(slot));
    if (this.lastSlot === slot) this.lastSlot = null;
    // Forgotten slots wait in the creation order until they are most of it.
    if (this.order.length - this.orderHead > 2 * this.held + 1_024) {
      this.order = this.order.slice(this.orderHead).filter((s) => s.held);
      this.orderHead = 0;
    }
    const byRun = this.runs.get(slot.tenant);
    const index = byRun?.get(slot.run);
    if (index === undefined) return;
    const slots = index.memories;
    const at = slots.indexOf(slot);
    if (at < 0) return;
    slots.splice(at, 1);
    if (slots.length > 0 || index.tools.size > 0) return;
    byRun!.delete(slot.run);
    if (byRun!.size === 0) this.runs.delete(slot.tenant);
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
      byRun.set(run, (index = { tools: new Map(), memories: [] }));
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
      const state = this.stateById(selection.keyId);
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
    const bucket = this.bucketOf(state);
    if (bucket === null) {
      if (!this.unindexed.has(state.keyId)) this.creation.push(state.keyId);
      this.unindexed.set(state.keyId, state);
    } else {
      // A transition keeps its key's id string, so finding the old version is mostly a pointer comparison.
      const at = indexOf(bucket, state.keyId);
      if (at >= 0) bucket[at] = state;
      else {
        bucket.push(state);
        this.creation.push(state.keyId);
      }
    }
    this.byKeyId?.set(state.keyId, state);
  }

  /** The state with this key id, found in the bucket its id names. */
  private stateById(keyId: string): FailureState | undefined {
    if (this.byKeyId !== null) return this.byKeyId.get(keyId);
    const at = keyCoordinatesOf(keyId);
    const bucket =
      at === null
        ? undefined
        : at.scope === 'run'
          ? this.runs.get(at.tenant)?.get(at.run)?.tools.get(at.tool)
          : at.principal === null
            ? undefined
            : this.fleetKeys.get(at.tenant)?.get(at.principal)?.get(at.resourceId);
    const found = bucket === undefined ? -1 : indexOf(bucket, keyId);
    return found >= 0 ? bucket![found] : this.unindexed.get(keyId);
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

/** What the store holds for one run: its keys' buckets by tool, and the slots of its memories. */
interface RunIndex {
  readonly tools: Map<string, FailureState[]>;
  readonly memories: MemorySlot[];
}

/** A memory's coordinates (progressMemoryId's arguments) and its id, once someone has read it (idOf). */
interface MemoryCoordinates {
  readonly tenant: string;
  readonly run: string;
  readonly tool: string;
  readonly resourceClass: string | null;
  readonly authScope: string | null;
  readonly read: boolean;
  id: string | null;
}

/** progressMemoryId of the coordinates, built on first read and kept. */
function idOf(at: MemoryCoordinates): string {
  return (at.id ??= progressMemoryId(at.tenant, at.run, at.tool, at.resourceClass, at.authScope, at.read));
}

/** A write the store made (writeAt): where it goes, found again without its id; the id is built when read. */
class MemoryWrite implements ProgressMemoryWrite {
  constructor(
    readonly store: MemoryStateStore,
    readonly at: MemoryCoordinates,
    /** The slot held at those coordinates when the write was made (null: none was). */
    readonly slot: MemorySlot | null,
    readonly memory: ProgressMemory | null,
  ) {}

  get id(): string {
    return idOf(this.at);
  }
}

/** Where a held memory lives: replaced in place by each write at its coordinates. */
interface MemorySlot extends MemoryCoordinates {
  memory: ProgressMemory;
  /** false once forgotten: its place in the creation order is skipped. */
  held: boolean;
}

const coordinatesOf = (
  tenant: string,
  run: string,
  tool: string,
  resourceClass: string | null,
  authScope: string | null,
  read: boolean,
  id: string | null,
): MemoryCoordinates => ({ tenant, run, tool, resourceClass, authScope, read, id });

/** One literal, so that every slot has one shape (atCall's scan reads their fields). */
const slotOf = (at: MemoryCoordinates, memory: ProgressMemory): MemorySlot => ({
  tenant: at.tenant,
  run: at.run,
  tool: at.tool,
  resourceClass: at.resourceClass,
  authScope: at.authScope,
  read: at.read,
  id: at.id,
  memory,
  held: true,
});

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

/** Where the state with `keyId` sits in a bucket, or -1. */
function indexOf(bucket: readonly FailureState[], keyId: string): number {
  for (let i = 0; i < bucket.length; i += 1) if (bucket[i]!.keyId === keyId) return i;
  return -1;
}
