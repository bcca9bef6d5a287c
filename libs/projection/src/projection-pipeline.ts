import { eventIdentity, type AgentEvent } from '@tokencircuit/contracts';
import {
  MemoryStateStore,
  type FailureState,
  candidateSelection,
  createGovernance,
  type Governance,
  type OutboxEntry,
  type Route,
  type TokenCircuitConfig,
} from '@tokencircuit/governance';
import { failureKind, type SqlDatabase, type SqlSession } from '@tokencircuit/storage';
import type { DeadLetter, InboundRecord } from './inbound-record.js';
import { prepareRecord, unprojectable, type Prepared, type PreparedEvent } from './prepare.js';
import { projectionStore, type PositionedEvent, type StateCoordinates } from './projection-store.js';

/** Where dead letters go before the batch commits, so none is lost if the process dies right after. */
export interface DeadLetterSink {
  /**
   * Must not throw for anything about the letters themselves (a copy the broker refuses is parked in a
   * smaller form): a throw means the sink is unreachable, and the whole chunk is retried.
   */
  send(deadLetters: readonly DeadLetter[]): Promise<void>;
}

/** The dead-letter sink failed: infrastructure by definition (see DeadLetterSink.send), retried whole. */
export class DeadLetterSinkError extends Error {
  override readonly name = 'DeadLetterSinkError';
  readonly retriable = true;
}

export interface BatchResult {
  /** Valid events new to agent_events and folded into state. */
  readonly projected: number;
  /** Valid events whose id was already stored (redelivery, producer retry): no effect. */
  readonly duplicates: number;
  /** Records below the stored checkpoint: applied by an earlier batch. */
  readonly alreadyApplied: number;
  readonly deadLettered: readonly DeadLetter[];
  readonly outbox: number;
  readonly eventsByType: ReadonlyMap<string, number>;
  /** The events this batch folded, with the W3C trace context they arrived with (for logs and traces). */
  readonly traced: readonly { readonly id: string; readonly type: string; readonly traceparent: string | null }[];
}

/**
 * One chunk → one Postgres transaction: events, folded state, outbox rows and the checkpoint commit
 * together, so redelivery after any crash changes nothing (the checkpoint and the event-id primary key
 * both say "already applied"). Same code for Kafka and the embedded bus.
 *
 * Poison isolation: when a chunk fails for a reason that is about its records (failureKind 'record': a
 * value Postgres refuses, a constraint, a stack overflow, any JavaScript error), it is split in halves,
 * each committed on its own in order, down to the one record that fails alone; that record is tried once
 * more, then parked as `unprojectable` and the checkpoint moves past it. Only an infrastructure failure
 * leaves process() (nothing parked, nothing committed past the failure), so the caller retries the chunk.
 */
export class ProjectionPipeline {
  private readonly governance: Governance;

  constructor(
    private readonly db: SqlDatabase,
    private readonly deadLetters: DeadLetterSink,
    policy: TokenCircuitConfig,
    private readonly consumerGroup: string,
  ) {
    this.governance = createGovernance(policy);
  }

  async process(records: readonly InboundRecord[]): Promise<BatchResult> {
    if (records.length === 0) return emptyResult();
    // The pure work (decoding, routing, which classifies, and the CloudEvent to store) is done before any
    // transaction, once per record, so the locks below are held for the round trips only.
    const prepared = records.map((record) => prepareRecord(record, this.governance));
    return this.isolating(prepared, new Set());
  }

  private async isolating(items: readonly Prepared[], parked: Set<string>): Promise<BatchResult> {
    try {
      return await this.commit(items, parked);
    } catch (error) {
      if (failureKind(error) === 'infrastructure') throw error;
      if (items.length > 1) {
        const half = Math.ceil(items.length / 2);
        // In order: the first half's checkpoint and state are committed before the second half reads them.
        const first = await this.isolating(items.slice(0, half), parked);
        return mergeResults(first, await this.isolating(items.slice(half), parked));
      }
      return this.parkAlone(items[0]!, error, parked);
    }
  }

  /** A record that failed alone: tried once more (a fluke costs one round trip), then parked. */
  private async parkAlone(item: Prepared, error: unknown, parked: Set<string>): Promise<BatchResult> {
    let last = error;
    try {
      return await this.commit([item], parked);
    } catch (again) {
      if (failureKind(again) === 'infrastructure') throw again;
      last = again;
    }
    // The database must answer a trivial query before a record is blamed: a failure no classification
    // recognised as the server's, while the server is gone, must not park a valid event.
    await this.db.query('SELECT 1');
    const record = item.ok ? item.record : item.deadLetter.source;
    return this.commit([unprojectable(record, 'transaction', last)], parked);
  }

  /** One transaction for `items` (contiguous, in offset order per partition); throws on any failure. */
  private async commit(items: readonly Prepared[], parked: Set<string>): Promise<BatchResult> {
    const records = items.map((item) => (item.ok ? item.record : item.deadLetter.source));
    const topic = records[0]!.topic;
    const partitions = [...new Set(records.map((r) => r.partition))];
    let deadLetters = items.flatMap((item) => (item.ok ? [] : [item.deadLetter]));
    let parkedBefore = 0;
    if (deadLetters.length > 0) {
      // Only a chunk with poison in it asks where the group is first, so a redelivered chunk does not
      // park the same records again (nor a half of a split chunk what the whole already sent); the
      // common chunk saves the round trip.
      const before = await projectionStore.lockCheckpoints(this.db, this.consumerGroup, topic, partitions);
      const due = deadLetters.filter((dl) => !isBelow(dl.source, before));
      parkedBefore = deadLetters.length - due.length;
      deadLetters = due;
      const unsent = due.filter((dl) => !parked.has(positionOf(dl.source)));
      try {
        await this.deadLetters.send(unsent);
      } catch (error) {
        throw new DeadLetterSinkError(`dead-letter sink failed: ${(error as Error)?.message ?? error}`, {
          cause: error,
        });
      }
      for (const dl of unsent) parked.add(positionOf(dl.source));
    }
    const prepared = items.filter((item): item is PreparedEvent => item.ok);

    return this.db.transaction(async (tx) => {
      const checkpoints = await projectionStore.lockCheckpoints(tx, this.consumerGroup, topic, partitions);
      const positioned: (PositionedEvent & { readonly routed: Route })[] = [];
      const idsInBatch = new Set<string>();
      let applied = 0;
      for (const p of prepared) {
        if (isBelow(p.record, checkpoints)) {
          applied += 1;
          continue;
        }
        // A redelivered copy in the same batch: the primary key would skip it, but it must not be folded twice.
        const identity = eventIdentity(p.event);
        if (idsInBatch.has(identity)) continue;
        idsInBatch.add(identity);
        positioned.push({
          event: p.event,
          routed: p.routed,
          cloudEvent: p.cloudEvent,
          topic: p.record.topic,
          partition: p.record.partition,
          offset: p.record.offset,
        });
      }
      // Lock before inserting: for any two batches that share a key, the one that folds first also
      // takes the lower agent_events.seq, so the stored order is the order the state saw.
      const coordinates = coordinatesOfRoutes(positioned.map((p) => p.routed));
      await projectionStore.lockCoordinates(tx, lockNamesOf(coordinates));
      const inserted = await projectionStore.insertEvents(tx, positioned);
      const folded = positioned.filter((p) => inserted.has(eventIdentity(p.event)));
      const { states, outbox } = await this.fold(tx, folded, coordinates);
      // One statement for every write after the fold: each round trip costs most when the host is busy.
      await projectionStore.saveFold(tx, {
        states,
        outbox,
        checkpoints: { group: this.consumerGroup, topic, next: nextOffsets(records) },
      });
      return {
        projected: folded.length,
        duplicates: prepared.length - applied - folded.length,
        alreadyApplied: applied + parkedBefore,
        deadLettered: deadLetters,
        outbox: outbox.length,
        eventsByType: countBy(folded, (p) => p.event.type),
        traced: folded.map((p) => ({ id: p.event.id, type: p.event.type, traceparent: traceparentOf(p.cloudEvent) })),
      };
    });
  }

  /**
   * Loads (and row-locks) every failure_state the events may touch and folds them exactly as the
   * reference fold does (same store, same project); returns the states that changed and the
   * outbox rows, for the caller to write with the checkpoint.
   */
  private async fold(
    tx: SqlSession,
    events: readonly { readonly event: AgentEvent; readonly routed: Route }[],
    coordinates: StateCoordinates,
  ): Promise<{ states: FailureState[]; outbox: OutboxEntry[] }> {
    if (events.length === 0) return { states: [], outbox: [] };
    const store = new MemoryStateStore();
    for (const state of (await projectionStore.loadStates(tx, coordinates)).values()) store.put(state);
    const changed = new Map<string, FailureState>();
    const outbox: OutboxEntry[] = [];
    for (const { event, routed } of events) {
      const result = this.governance.project(store.candidates(routed), event, routed);
      for (const state of result.changed) {
        store.put(state);
        changed.set(state.keyId, state);
      }
      outbox.push(...result.outbox);
    }
    return { states: [...changed.values()], outbox };
  }
}

/**
 * Every row a batch may read or create: the core's candidateSelection of each event (the key an
 * outcome opens lies at its selection's coordinates too). Loaded by coordinate prefix (run, principal),
 * a superset the fold's own filter narrows (test/storage/candidate-selection.int.spec.ts).
 */
export function coordinatesOfRoutes(routes: readonly Route[]): StateCoordinates {
  const runs = new Map<string, readonly [string, string]>();
  const principals = new Map<string, readonly [string, string]>();
  const keyIds = new Set<string>();
  for (const r of routes) {
    const { tenant, keyId, runKeys, fleetKeys } = candidateSelection(r);
    if (keyId !== null) keyIds.add(keyId);
    // Length-prefixed: identifiers may hold any separator character, and a lost pair would be a row never loaded.
    if (runKeys !== null) runs.set(`${tenant.length}:${tenant}${runKeys.run}`, [tenant, runKeys.run]);
    if (fleetKeys !== null)
      principals.set(`${tenant.length}:${tenant}${fleetKeys.principal}`, [tenant, fleetKeys.principal]);
  }
  return { runs: [...runs.values()], principals: [...principals.values()], keyIds: [...keyIds] };
}

function lockNamesOf(at: StateCoordinates): string[] {
  return [
    ...at.runs.map(([tenant, run]) => `run\u001f${tenant}\u001f${run}`),
    ...at.principals.map(([tenant, principal]) => `principal\u001f${tenant}\u001f${principal}`),
    ...at.keyIds.map((keyId) => `key\u001f${keyId}`),
  ];
}

function isBelow(record: InboundRecord, checkpoints: ReadonlyMap<number, bigint>): boolean {
  const next = checkpoints.get(record.partition);
  return next !== undefined && BigInt(record.offset) < next;
}

function nextOffsets(records: readonly InboundRecord[]): Map<number, bigint> {
  const next = new Map<number, bigint>();
  for (const r of records) {
    const candidate = BigInt(r.offset) + 1n;
    if ((next.get(r.partition) ?? -1n) < candidate) next.set(r.partition, candidate);
  }
  return next;
}

function countBy<T>(items: readonly T[], keyOf: (item: T) => string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(keyOf(item), (counts.get(keyOf(item)) ?? 0) + 1);
  return counts;
}

function positionOf(record: InboundRecord): string {
  return `${record.topic}\u001f${record.partition}\u001f${record.offset}`;
}

function mergeResults(a: BatchResult, b: BatchResult): BatchResult {
  const eventsByType = new Map(a.eventsByType);
  for (const [type, count] of b.eventsByType) eventsByType.set(type, (eventsByType.get(type) ?? 0) + count);
  return {
    projected: a.projected + b.projected,
    duplicates: a.duplicates + b.duplicates,
    alreadyApplied: a.alreadyApplied + b.alreadyApplied,
    deadLettered: [...a.deadLettered, ...b.deadLettered],
    outbox: a.outbox + b.outbox,
    eventsByType,
    traced: [...a.traced, ...b.traced],
  };
}

function emptyResult(): BatchResult {
  return {
    projected: 0,
    duplicates: 0,
    alreadyApplied: 0,
    deadLettered: [],
    outbox: 0,
    eventsByType: new Map(),
    traced: [],
  };
}

function traceparentOf(cloudEvent: unknown): string | null {
  const value = (cloudEvent as { traceparent?: unknown }).traceparent;
  return typeof value === 'string' ? value : null;
}
