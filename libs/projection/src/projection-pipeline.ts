import type { TokenCircuitConfig } from '@tokencircuit/governance';
import {
  databaseAnswers,
  failureKind,
  readCheckpoints,
  transactionOpenedBy,
  type SqlDatabase,
  type SqlSession,
} from '@tokencircuit/storage';
import { conflictingDuplicate, recordOfCloudEvent, unprojectable } from './dead-letters.js';
import { decode, type Decoded } from './decode.js';
import type { DeadLetter, InboundRecord } from './inbound-record.js';
import type { EventPosition, PositionedEvent } from './positioned-event.js';
import { applyChunk, chunkOpening, isBelow, type OpenedChunk } from './apply-chunk.js';
import type { CandidateStateCache } from './candidate-state-cache.js';

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
 * Chunks → `applyChunk` in one Postgres transaction each: events, folded state, outbox rows and the
 * checkpoint commit together. Kafka records are decoded first (`process`); events that arrive typed and
 * already validated in this process (the embedded bus, a replay) go in as they are (`processEvents`).
 *
 * Poison isolation: when a chunk fails for a reason that is about its records (failureKind 'record': a
 * value Postgres refuses, a constraint, a stack overflow, any JavaScript error), it is split in halves,
 * each committed on its own in order, down to the one record that fails alone; that record is tried once
 * more, then parked as `unprojectable` and the checkpoint moves past it. Only an infrastructure failure
 * leaves process() (nothing parked, nothing committed past the failure), so the caller retries the chunk.
 */
export class ProjectionPipeline {
  constructor(
    private readonly db: SqlDatabase,
    private readonly deadLetters: DeadLetterSink,
    private readonly policy: TokenCircuitConfig,
    private readonly consumerGroup: string,
    /** The states this pipeline last read or committed (CandidateStateCache); none: every load reads documents. */
    private readonly stateCache?: CandidateStateCache,
  ) {}

  /** Kafka records of one topic: each decoded once, before any transaction. */
  async process(records: readonly InboundRecord[]): Promise<BatchResult> {
    if (records.length === 0) return emptyResult();
    return this.isolating(records.map(decode), new Set());
  }

  /** Positioned events of one topic, already decoded (`decodeCloudEvent`) or accepted (`acceptedEvent`). */
  async processEvents(events: readonly PositionedEvent[]): Promise<BatchResult> {
    return this.processDecoded(events.map((event) => ({ ok: true, event })));
  }

  /** What `decode` or `decodeCloudEvent` made of a chunk: the refused ones are parked, the checkpoint moves past them. */
  async processDecoded(items: readonly Decoded[]): Promise<BatchResult> {
    if (items.length === 0) return emptyResult();
    return this.isolating(items, new Set());
  }

  private async isolating(items: readonly Decoded[], parked: Set<string>): Promise<BatchResult> {
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
  private async parkAlone(item: Decoded, error: unknown, parked: Set<string>): Promise<BatchResult> {
    let last = error;
    try {
      return await this.commit([item], parked);
    } catch (again) {
      if (failureKind(again) === 'infrastructure') throw again;
      last = again;
    }
    // The database must answer a trivial query before a record is blamed: a failure no classification
    // recognised as the server's, while the server is gone, must not park a valid event.
    await databaseAnswers(this.db);
    const source = item.ok
      ? (item.source ?? recordOfCloudEvent(item.event, item.event.cloudEvent))
      : item.deadLetter.source;
    return this.commit([{ ok: false, deadLetter: unprojectable(source, 'transaction', last) }], parked);
  }

  /** One transaction for `items` (contiguous, in offset order per partition); throws on any failure. */
  /** Sends the letters this run has not parked yet (a split chunk may meet them twice) and remembers them. */
  private async park(letters: readonly DeadLetter[], parked: Set<string>): Promise<void> {
    const unsent = letters.filter((dl) => !parked.has(positionKey(dl.source)));
    try {
      await this.deadLetters.send(unsent);
    } catch (error) {
      throw new DeadLetterSinkError(`dead-letter sink failed: ${(error as Error)?.message ?? error}`, {
        cause: error,
      });
    }
    for (const dl of unsent) parked.add(positionKey(dl.source));
  }

  private async commit(items: readonly Decoded[], parked: Set<string>): Promise<BatchResult> {
    const topic = positionOfItem(items[0]!).topic;
    let deadLetters = items.flatMap((item) => (item.ok ? [] : [item.deadLetter]));
    let parkedBefore = 0;
    if (deadLetters.length > 0) {
      // Only a chunk with poison in it asks where the group is first, so a redelivered chunk does not
      // park the same records again (nor a half of a split chunk what the whole already sent); the
      // common chunk saves the round trip.
      const partitions = [...new Set(items.map((item) => positionOfItem(item).partition))];
      const before = await readCheckpoints(this.db, this.consumerGroup, topic, { partitions });
      const due = deadLetters.filter((dl) => !isBelow(dl.source, before));
      parkedBefore = deadLetters.length - due.length;
      deadLetters = due;
      await this.park(due, parked);
    }
    const events = items.flatMap((item) => (item.ok ? [item.event] : []));
    const refused = items.flatMap((item) => (item.ok ? [] : [item.deadLetter.source]));
    const conflicting: DeadLetter[] = [];
    const chunk = { group: this.consumerGroup, topic, events, refused };
    const project = async (tx: SqlSession, opened?: OpenedChunk) => {
      const projected = await applyChunk(tx, this.policy, chunk, opened, this.stateCache);
      // A known id of the same source with another body: parked with the reason before the checkpoint moves
      // past it (in this transaction), so a crash before the commit parks it again rather than never.
      if (projected.conflicts.length > 0) {
        const sources = new Map(items.flatMap((item) => (item.ok && item.source ? [[item.event, item.source]] : [])));
        const letters = projected.conflicts.map(({ positioned, storedDigest }) =>
          conflictingDuplicate(
            sources.get(positioned) ?? recordOfCloudEvent(positioned, positioned.cloudEvent),
            positioned,
            storedDigest,
          ),
        );
        await this.park(letters, parked);
        conflicting.push(...letters);
      }
      return projected;
    };
    // The chunk's checkpoints are read (row-locked) and its coordinates locked by the statements its BEGIN carries.
    const opening = chunkOpening(this.policy, chunk);
    const projection = await (opening
      ? transactionOpenedBy(this.db, opening, project)
      : this.db.transaction((tx) => project(tx)));
    // Committed: what the transaction read and what it wrote are what the table holds now (the later version wins).
    this.stateCache?.remember(projection.loaded);
    this.stateCache?.remember(projection.states);
    deadLetters = [...deadLetters, ...conflicting];
    const { folded } = projection;
    return {
      projected: folded.length,
      duplicates: projection.duplicates,
      alreadyApplied: projection.alreadyApplied + parkedBefore,
      deadLettered: deadLetters,
      outbox: projection.outbox.length,
      eventsByType: countBy(folded, (p) => p.event.type),
      traced: folded.map((p) => ({ id: p.event.id, type: p.event.type, traceparent: p.traceparent })),
    };
  }
}

function positionOfItem(item: Decoded): EventPosition {
  return item.ok ? item.event : item.deadLetter.source;
}

function countBy<T>(items: readonly T[], keyOf: (item: T) => string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(keyOf(item), (counts.get(keyOf(item)) ?? 0) + 1);
  return counts;
}

function positionKey(at: EventPosition): string {
  return `${at.topic}\u001f${at.partition}\u001f${at.offset}`;
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
