import { identityOfEvent, type ToolCallOutcome } from '@tokencircuit/contracts';
import {
  candidateSelection,
  createGovernance,
  keyCoordinatesOf,
  MemoryStateStore,
  policyVersion,
  type FailureState,
  type Governance,
  type OutboxEntry,
  type ProgressMemoryWrite,
  type Route,
  type TokenCircuitConfig,
} from '@tokencircuit/governance';
import {
  agentEventRows,
  insertAgentEvents,
  loadCandidateStates,
  coordinateLocksStatement,
  lockCoordinates,
  prepareFold,
  lockedCheckpointsOpening,
  readCheckpoints,
  type OpeningStatement,
  savePreparedFold,
  settleOutcomesWithCrossings,
  type FoldWrites,
  type LoadedCandidates,
  type PreparedFold,
  type SqlSession,
  type StateCoordinates,
} from '@tokencircuit/storage';
import type { CandidateStateCache } from './candidate-state-cache.js';
import type { EventPosition, PositionedEvent } from './positioned-event.js';

/** One chunk of one topic, in offset order per partition. */
export interface ChunkInput {
  /** The consumer group whose checkpoints say what was applied. */
  readonly group: string;
  readonly topic: string;
  readonly events: readonly PositionedEvent[];
  /** Positions of the chunk's records refused before the transaction (dead letters): the checkpoint moves past them too. */
  readonly refused?: readonly EventPosition[];
}

export interface AppliedChunk {
  /** The events new to agent_events, folded into state, in order. */
  readonly folded: readonly PositionedEvent[];
  /** Events whose id was already stored (redelivery, producer retry) or repeated in the chunk: no effect. */
  readonly duplicates: number;
  /** Events below the stored checkpoint: applied by an earlier transaction. */
  readonly alreadyApplied: number;
  /**
   * Events whose identity (tenant, id, source) is stored, or earlier in the chunk, with another body: not
   * applied, to be parked by the caller with the stored (or earlier) event's digest.
   */
  readonly conflicts: readonly ConflictingEvent[];
  readonly states: readonly FailureState[];
  readonly outbox: readonly OutboxEntry[];
  /** The candidate states the transaction read under its locks (committed before it), changed or not. */
  readonly loaded: readonly FailureState[];
}

/** A known event id of the same source with another body (CloudEvents: id is unique within source). */
export interface ConflictingEvent {
  readonly positioned: PositionedEvent;
  /** tokencircuit_event_digest of the stored event; null for a conflict with an earlier event of the same chunk. */
  readonly storedDigest: string | null;
}

/**
 * Positioned events → agent_events rows, folded failure_state, outbox rows and the checkpoint, all in the
 * caller's transaction `tx`, so a redelivery after any crash changes nothing: the checkpoint and the
 * event-id primary key both say "already applied". Throws on any failure (the caller rolls back and
 * decides what to retry or park).
 */
export async function applyChunk(
  tx: SqlSession,
  policy: TokenCircuitConfig,
  input: ChunkInput,
  /** What chunkOpening's statements did when they opened `tx`; done here when absent. */
  opened?: OpenedChunk,
  /** States the caller last read or committed: the load sends only the documents whose version moved. */
  cache?: CandidateStateCache,
): Promise<AppliedChunk> {
  const { group, topic, events, refused = [] } = input;
  const partitions = partitionsOf(input);
  if (partitions.length === 0)
    return { folded: [], duplicates: 0, alreadyApplied: 0, conflicts: [], states: [], outbox: [], loaded: [] };
  // Pure work first, so the locks below are held for the round trips only.
  const governance = createGovernance(policy);
  const routes = opened?.routes ?? events.map((p) => governance.route(p.event));
  const checkpoints = opened?.checkpoints ?? (await readCheckpoints(tx, group, topic, { partitions, forUpdate: true }));
  const fresh: { readonly positioned: PositionedEvent; readonly routed: Route }[] = [];
  const idsInChunk = new Map<string, PositionedEvent>();
  const conflicts: ConflictingEvent[] = [];
  let alreadyApplied = 0;
  events.forEach((positioned, i) => {
    if (isBelow(positioned, checkpoints)) {
      alreadyApplied += 1;
      return;
    }
    // A redelivered copy in the same chunk: the primary key would skip it, but it must not be folded twice;
    // a copy with another body is a conflict (compared only here, when an identity repeats: rare). The
    // chunk's first record of an identity is the one compared with what is stored; a later one is compared
    // with that first record.
    const identity = identityOfEvent(positioned.event);
    const first = idsInChunk.get(identity);
    if (first !== undefined) {
      if (!sameBody(first, positioned)) conflicts.push({ positioned, storedDigest: null });
      return;
    }
    idsInChunk.set(identity, positioned);
    fresh.push({ positioned, routed: routes[i]! });
  });
  const coordinates = coordinatesOfRoutes(fresh.map((f) => f.routed));
  const rows = agentEventRows(fresh.map((f) => f.positioned));
  const checkpoint = { group, topic, next: nextOffsets([...events, ...refused]) };
  // Lock before inserting: for any two chunks that share a key, the one that folds first also takes the
  // lower agent_events.seq, so the stored order is the order the state saw.
  // The opening locked every event's coordinates, so these (of the fresh ones) are held already.
  const lockNames = lockNamesOf(coordinates);
  await lockCoordinates(tx, opened ? lockNames.filter((name) => !opened.locked.has(name)) : lockNames);
  const loaded: LoadedCandidates =
    fresh.length === 0
      ? { states: new Map(), memories: new Map() }
      : await loadCandidateStates(tx, coordinates, cache?.known(coordinates));
  // Postgres inserts the events while this process folds them, so the locks are held for the longer of the
  // two rather than their sum. The fold takes every fresh event as new; one the insert finds already stored
  // (a redelivery after a crash, a producer's retry: rare) is taken out and the chunk folded again.
  const insertion = insertAgentEvents(tx, rows);
  let guess: Folded;
  try {
    guess = fold(governance, loaded, fresh, checkpoint);
  } catch (error) {
    await insertion; // the insert's own failure, if any, is the one reported; never left unobserved
    throw error;
  }
  const { inserted, conflicts: stored } = await insertion;
  const folding =
    inserted.size === fresh.length ? fresh : fresh.filter((f) => inserted.has(identityOfEvent(f.positioned.event)));
  if (stored.size > 0) {
    for (const { positioned } of fresh) {
      const storedDigest = stored.get(identityOfEvent(positioned.event));
      if (storedDigest !== undefined) conflicts.push({ positioned, storedDigest });
    }
    // Parked in the order they arrived.
    const order = new Map(events.map((positioned, i) => [positioned, i]));
    conflicts.sort((a, b) => order.get(a.positioned)! - order.get(b.positioned)!);
  }
  const { states, outbox, writes } = folding === fresh ? guess : fold(governance, loaded, folding, checkpoint);
  // One statement for every write after the fold: each round trip costs most when the host is busy.
  await savePreparedFold(tx, writes);
  // Spend (issue 31): the outcomes folded here settle their calls in the same transaction, whichever door they
  // came through (an agent publishing to Kafka directly, or POST /v1/events, which settled them already:
  // settling is idempotent per call, and only events new to agent_events get here, so a redelivery counts nothing).
  // What a settle takes past a threshold or the limit becomes a budget intervention and an episode step for the
  // notifier, in this transaction too (the API publishes its own to Kafka; these reach the notifier through the table).
  if (policy.spend !== undefined) {
    const outcomes = folding.flatMap((f) =>
      f.positioned.event.type === 'tool_call.outcome' ? [f.positioned.event as ToolCallOutcome] : [],
    );
    if (outcomes.length > 0) await settleOutcomesWithCrossings(tx, policy.spend, versionOf(policy), outcomes);
  }
  return {
    folded: folding.map((f) => f.positioned),
    duplicates: events.length - alreadyApplied - folding.length - conflicts.length,
    alreadyApplied,
    conflicts,
    states,
    outbox,
    loaded: [...loaded.states.values()],
  };
}

/** The stored CloudEvents without their trace context, as tokencircuit_event_body compares them (migration 0035). */
function sameBody(a: PositionedEvent, b: PositionedEvent): boolean {
  const { traceparent: _a, ...bodyA } = a.cloudEvent as Record<string, unknown>;
  const { traceparent: _b, ...bodyB } = b.cloudEvent as Record<string, unknown>;
  return JSON.stringify(bodyA) === JSON.stringify(bodyB);
}

interface Folded {
  readonly states: FailureState[];
  readonly outbox: OutboxEntry[];
  /** The statement that writes them with the checkpoint, serialised (pure work, done while the insert runs). */
  readonly writes: PreparedFold | null;
}

/**
 * Folds the events over the loaded (and row-locked) candidate states exactly as the reference fold does
 * (same store, same governance.project); returns the states that changed, the outbox rows, and the
 * statement that writes them with the checkpoint.
 */
function fold(
  governance: Governance,
  loaded: LoadedCandidates,
  events: readonly { readonly positioned: PositionedEvent; readonly routed: Route }[],
  checkpoints: FoldWrites['checkpoints'],
): Folded {
  // No capacity: a chunk holds only the memories of its own coordinates, and each one it changed is written.
  const store = new MemoryStateStore(Number.POSITIVE_INFINITY);
  for (const state of loaded.states.values()) store.put(state);
  for (const [id, memory] of loaded.memories) store.remember({ id, memory });
  const changed = new Map<string, FailureState>();
  const remembered = new Map<string, ProgressMemoryWrite>();
  const outbox: OutboxEntry[] = [];
  for (const { positioned, routed } of events) {
    const result = governance.project(store.candidates(routed), positioned.event, store, routed);
    if (result.memory !== null) {
      store.remember(result.memory);
      // Once per memory and transaction: its last write.
      remembered.set(result.memory.id, result.memory);
    }
    for (const state of result.changed) {
      store.put(state);
      changed.set(state.keyId, state);
    }
    outbox.push(...result.outbox);
  }
  const states = [...changed.values()];
  const memories = [...remembered.values()];
  return { states, outbox, writes: prepareFold({ states, outbox, memories, checkpoints }) };
}

/**
 * Every row a chunk may read or create: the core's candidateSelection of each event (the key an
 * outcome opens lies at its selection's coordinates too), loaded exactly
 * (test/storage/candidate-selection.int.spec.ts); lockNamesOf names the same coordinates for the locks.
 */
export function coordinatesOfRoutes(routes: readonly Route[]): StateCoordinates {
  const runTools = new Map<string, readonly [string, string, string]>();
  const fleetResources = new Map<string, readonly [string, string, string | null]>();
  const keyIds = new Set<string>();
  for (const r of routes) {
    const { tenant, keyId, runKeys, fleetKeys } = candidateSelection(r);
    if (keyId !== null) keyIds.add(keyId);
    // Length-prefixed: identifiers may hold any separator character, and a lost tuple would be a row never loaded.
    if (runKeys !== null) {
      runTools.set(dedupeKey(tenant, runKeys.run, runKeys.tool), [tenant, runKeys.run, runKeys.tool]);
    }
    if (fleetKeys !== null) {
      fleetResources.set(dedupeKey(tenant, fleetKeys.principal, fleetKeys.resourceId), [
        tenant,
        fleetKeys.principal,
        fleetKeys.resourceId,
      ]);
    }
  }
  return { runTools: [...runTools.values()], fleetResources: [...fleetResources.values()], keyIds: [...keyIds] };
}

const dedupeKey = (...parts: readonly (string | null)[]): string =>
  parts.map((p) => (p === null ? '-' : `${p.length}:${p}`)).join('');

/**
 * Advisory lock names: exactly the candidate coordinates (a run's tool, a principal's resource), so a key opened by
 * one chunk blocks every chunk that could select it (each selection names the coordinates of the keys it may read or
 * create) and no other: two partitions whose chunks name the same principal on different resources no longer queue
 * behind each other. A key named by its id (an operator's resolution) is locked through the coordinates its id
 * holds, the same name as every chunk that reaches it through its run or its principal's resource: one lock per
 * row, whichever way a chunk gets to it. That is what keeps a chunk from folding a version another chunk is about
 * to replace (the load takes no row locks: they wrote WAL for every candidate row, updated or not, and waited only
 * where the advisory lock already had), and what serialises creating the same key twice.
 */
export function lockNamesOf(at: StateCoordinates): string[] {
  // Length-prefixed like the dedupe keys: two coordinates must never share a name by accident of a
  // separator inside an identifier (that would only over-serialise, but it would hide what is locked).
  return [
    ...at.runTools.map(([tenant, run, tool]) => runLockName(tenant, run, tool)),
    ...at.fleetResources.map(([tenant, principal, resourceId]) => fleetLockName(tenant, principal, resourceId)),
    ...at.keyIds.map(keyLockName),
  ];
}

const runLockName = (tenant: string, run: string, tool: string) => `run:${dedupeKey(tenant, run, tool)}`;
const fleetLockName = (tenant: string, principal: string | null, resourceId: string | null) =>
  `fleet:${dedupeKey(tenant, principal, resourceId)}`;

/** The lock of the coordinates a key id holds; an id keyIdOf never writes names no row, and gets a name of its own. */
function keyLockName(keyId: string): string {
  const at = keyCoordinatesOf(keyId);
  if (at === null) return `key:${dedupeKey(keyId)}`;
  return at.scope === 'run'
    ? runLockName(at.tenant, at.run, at.tool)
    : fleetLockName(at.tenant, at.principal, at.resourceId);
}

/** The position was applied by an earlier transaction (its partition's checkpoint is past it). */
export function isBelow(at: EventPosition, checkpoints: ReadonlyMap<number, bigint>): boolean {
  const next = checkpoints.get(at.partition);
  return next !== undefined && BigInt(at.offset) < next;
}

function nextOffsets(positions: readonly EventPosition[]): Map<number, bigint> {
  const next = new Map<number, bigint>();
  for (const p of positions) {
    const candidate = BigInt(p.offset) + 1n;
    if ((next.get(p.partition) ?? -1n) < candidate) next.set(p.partition, candidate);
  }
  return next;
}

const versions = new WeakMap<TokenCircuitConfig, string>();
/** The policy's version (a hash of it), computed once per policy object rather than per chunk. */
function versionOf(policy: TokenCircuitConfig): string {
  let version = versions.get(policy);
  if (version === undefined) {
    version = policyVersion(policy);
    versions.set(policy, version);
  }
  return version;
}

const partitionsOf = ({ events, refused = [] }: ChunkInput): number[] => [
  ...new Set([...events, ...refused].map((p) => p.partition)),
];

/** What the statements that open a chunk's transaction did (chunkOpening). */
export interface OpenedChunk {
  /** The chunk's partitions' checkpoints, row-locked. */
  readonly checkpoints: ReadonlyMap<number, bigint>;
  /** Each event's route, in input order (computed to name the locks). */
  readonly routes: readonly Route[];
  /** The coordinate locks taken: those of every event of the chunk. */
  readonly locked: ReadonlySet<string>;
}

/**
 * The statements that open a chunk's transaction, sent with its BEGIN in one message (transactionOpenedBy): the
 * chunk's checkpoints, row-locked, then the coordinate locks of all its events (a superset of applyChunk's, which
 * leaves out events already applied: those are only redeliveries). Two round trips fewer per transaction, in the
 * same order as before. Hand what they did to applyChunk. null for a chunk without records.
 */
export function chunkOpening(policy: TokenCircuitConfig, input: ChunkInput): OpeningStatement<OpenedChunk> | null {
  const partitions = partitionsOf(input);
  if (partitions.length === 0) return null;
  const governance = createGovernance(policy);
  const routes = input.events.map((p) => governance.route(p.event));
  const names = [...new Set(lockNamesOf(coordinatesOfRoutes(routes)))];
  const checkpoints = lockedCheckpointsOpening(input.group, input.topic, partitions);
  const locks = coordinateLocksStatement(names);
  return {
    statements: locks ? [checkpoints.text, locks.text] : [checkpoints.text],
    read: (answers) => ({ checkpoints: checkpoints.read(answers[0]!), routes, locked: new Set(names) }),
  };
}
