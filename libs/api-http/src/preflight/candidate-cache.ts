import type { ToolCall } from '@tokencircuit/contracts';
import { preflightSelection, type FailureState } from '@tokencircuit/governance';
import { stateCoordinateHash } from '@tokencircuit/storage';
import { CoordinateWatchers } from './coordinate-watchers.js';

/** How many coordinate changes a read in flight can be checked against; more while it runs, and it is not kept. */
const CHANGE_LOG = 4_096;

interface Entry {
  readonly states: readonly FailureState[];
  /** The coordinate hashes a change of which makes this entry stale: the run's, and the principal's if any. */
  readonly coordinates: readonly string[];
}

/**
 * The preflight's candidate states, kept in memory per selection (a run and tool, a principal and resource
 * id) and dropped exactly when a committed statement changes failure_state at those coordinates (the
 * notifications of migration 0046). A preflight then needs no database round trip for a call whose run and
 * principal have not changed since the last read. Nothing is served from memory unless the notifications
 * are being received (`live`): before LISTEN, after the connection is lost, every call reads through.
 *
 * How stale an answer can be: by the time between a commit and its notification being handled here (the
 * same order as one round trip), never longer — the read that filled an entry is not kept if any change of
 * its coordinates was announced while it ran.
 */
export class CandidateCache {
  private readonly entries = new Map<string, Entry>();
  /** Entry keys per coordinate hash. */
  private readonly byCoordinate = new Map<string, Set<string>>();
  /** The last CHANGE_LOG announced hashes, by sequence number modulo CHANGE_LOG. */
  private readonly changeLog: string[] = new Array<string>(CHANGE_LOG);
  private changes = 0;
  /** Bumped whenever the cache starts or stops trusting the notifications: reads begun before are not kept. */
  private epoch = 0;
  private live = false;
  /** Change feeds of clients that keep allowed answers (GET /v1/preflight/changes): told what this cache is told. */
  private readonly watchers = new CoordinateWatchers();

  constructor(
    private readonly readThrough: (tenant: string, call: ToolCall) => Promise<FailureState[]>,
    readonly capacity: number,
  ) {}

  /** Whether answers may come from memory (the notifications are being received). */
  get isLive(): boolean {
    return this.live;
  }

  get size(): number {
    return this.entries.size;
  }

  /** The notifications are received from now on: what was kept before cannot be trusted, it is dropped. */
  start(): void {
    this.clear();
    this.live = true;
  }

  /** The notifications stopped (connection lost, shutting down): nothing is served from memory until start. */
  stop(): void {
    this.live = false;
    this.clear();
    this.watchers.lost();
  }

  /**
   * Tells `changed` whenever a committed statement changes failure_state at one of `hashes`, from now on, and
   * `lost` once if the notifications stop (after which nothing more is told). Null while they are not received:
   * a change could not be relayed.
   */
  watch(hashes: readonly string[], changed: () => void, lost: () => void): (() => void) | null {
    return this.live ? this.watchers.watch(hashes, changed, lost) : null;
  }

  /** How many change feeds are attached. */
  get watching(): number {
    return this.watchers.size;
  }

  /** A committed statement changed failure_state at these coordinates. */
  changed(hashes: readonly string[]): void {
    this.watchers.changed(hashes);
    for (const hash of hashes) {
      this.changeLog[this.changes % CHANGE_LOG] = hash;
      this.changes += 1;
      const keys = this.byCoordinate.get(hash);
      if (keys === undefined) continue;
      this.byCoordinate.delete(hash);
      for (const key of keys) this.drop(key);
    }
  }

  async candidates(tenant: string, call: ToolCall): Promise<FailureState[]> {
    if (!this.live) return this.readThrough(tenant, call);
    const selection = preflightSelection(tenant, call);
    const run = selection.runKeys!.run;
    const fleet = selection.fleetKeys;
    const key = JSON.stringify([tenant, run, selection.runKeys!.tool, fleet?.principal ?? null, fleet?.resourceId ?? null]);
    const hit = this.entries.get(key);
    if (hit !== undefined) {
      // Least recently used goes first: a hit moves to the end of the map's order.
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit.states as FailureState[];
    }
    const epoch = this.epoch;
    const since = this.changes;
    const states = await this.readThrough(tenant, call);
    if (!this.live || this.epoch !== epoch) return states;
    const coordinates = preflightCoordinates(tenant, run, fleet?.principal ?? null);
    if (!this.changedSince(since, coordinates)) this.keep(key, { states, coordinates });
    return states;
  }

  private changedSince(since: number, coordinates: readonly string[]): boolean {
    if (this.changes - since > CHANGE_LOG) return true;
    for (let seq = since; seq < this.changes; seq++)
      if (coordinates.includes(this.changeLog[seq % CHANGE_LOG]!)) return true;
    return false;
  }

  private keep(key: string, entry: Entry): void {
    if (this.entries.size >= this.capacity) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.drop(oldest.value);
    }
    this.entries.set(key, entry);
    for (const hash of entry.coordinates) {
      let keys = this.byCoordinate.get(hash);
      if (keys === undefined) this.byCoordinate.set(hash, (keys = new Set()));
      keys.add(key);
    }
  }

  private drop(key: string): void {
    const entry = this.entries.get(key);
    if (entry === undefined) return;
    this.entries.delete(key);
    for (const hash of entry.coordinates) {
      const keys = this.byCoordinate.get(hash);
      if (keys === undefined) continue;
      keys.delete(key);
      if (keys.size === 0) this.byCoordinate.delete(hash);
    }
  }

  private clear(): void {
    this.epoch += 1;
    this.entries.clear();
    this.byCoordinate.clear();
  }
}

/** The coordinate hashes whose change can change a preflight of this run and principal (a run's, a principal's). */
export function preflightCoordinates(tenant: string, run: string, principal: string | null): string[] {
  const coordinates = [stateCoordinateHash('run', tenant, run)];
  if (principal !== null) coordinates.push(stateCoordinateHash('principal', tenant, principal));
  return coordinates;
}
