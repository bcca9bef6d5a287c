import { stateDelta, type FailureState, type OutboxEntry, type ProgressMemoryWrite } from '@tokencircuit/governance';
import { queryPreparedIfAble, type SqlSession } from '../sql-database.js';
import { joinBodies, splitBodies } from './json-bodies.js';
import { stateDocumentText, stateKeyColumnsOf } from '../state/state-document.js';
import type { EarlierTransition } from '../tables/decision-outbox.js';

/** What a chunk writes once folded; the checkpoint moves in the same statement as the state. */
export interface FoldWrites {
  readonly states: readonly FailureState[];
  readonly outbox: readonly OutboxEntry[];
  /**
   * The run memories the chunk changed, each once (its last write): a memory to keep, or null where the
   * chunk opened its key (the row goes). Absent or empty: none.
   */
  readonly memories?: readonly ProgressMemoryWrite[];
  /** Next offset per partition; a checkpoint only ever moves forward (GREATEST). */
  readonly checkpoints: { readonly group: string; readonly topic: string; readonly next: ReadonlyMap<number, bigint> };
}

/**
 * Everything a chunk writes after its fold, in one statement (one round trip): the changed states,
 * the outbox rows and the checkpoint, as data-modifying CTEs of the caller's transaction. Built by
 * prepareFold without a session (serialising is most of its work), run by savePreparedFold.
 */
export interface PreparedFold {
  readonly name: string;
  readonly text: string;
  readonly params: readonly unknown[];
}

/** null: nothing to write. */
export async function savePreparedFold(tx: SqlSession, prepared: PreparedFold | null): Promise<void> {
  if (prepared === null) return;
  await queryPreparedIfAble(tx, prepared.name, prepared.text, prepared.params);
}

export function prepareFold(fold: FoldWrites): PreparedFold | null {
  const parts: string[] = [];
  const params: unknown[] = [];
  const param = (value: unknown) => `$${params.push(value)}`;
  // Each JSON text travels once, numbered (JSON text is the bulk of what this statement carries): a state row's
  // document without the key its columns hold (stateDocumentText), an outbox row's copy of its state whole.
  const bodies = new SnapshotBodies();
  const stateRows = fold.states.map((s) => ({ ...stateRowOf(s), body: bodies.documentOf(s) }));
  const outboxRows = outboxRowsOf(fold, bodies);
  if (bodies.size > 0) {
    parts.push(`bodies AS MATERIALIZED (
     SELECT b.body, b.ord FROM ${splitBodies(param(bodies.bytes()))} WITH ORDINALITY AS b(body, ord))`);
  }
  if (stateRows.length > 0) {
    // A pending outbox row may refer to the version about to be replaced: keep that version for it first.
    // Every part of the statement reads the state as it was before the statement, so this copies the old one.
    // Outbox ids are "<key id>@v<version>" (outboxEntryOf). A correlated subquery, not a join: it can only be a
    // primary-key probe per changed key, where a join's plan, cached while the tables were small, could scan
    // the whole outbox. The referring row carries its key's earlier transitions (0053), so it alone decides; rows
    // written before 0053 may carry a delta against it from rows of earlier versions (0047): the referring row names
    // from which version on, and each of those ids is one more probe while it stays pending.
    parts.push(`kept AS (
     INSERT INTO outbox_states (key_id, state_version, tenant, state)
     SELECT f.key_id, f.version, f.tenant, f.state FROM failure_state f
      WHERE f.key_id = ANY(${param(stateRows.map((r) => r.key_id))}::text[])
        AND (SELECT o.state_snapshot IS NULL AND (o.published_at IS NULL OR (o.dependents_from IS NOT NULL
                    AND EXISTS (SELECT 1 FROM decision_outbox d
                                 WHERE d.id = ANY (ARRAY(SELECT f.key_id || '@v' || g
                                                           FROM generate_series(o.dependents_from, f.version - 1) g))
                                   AND d.published_at IS NULL)))
               FROM decision_outbox o WHERE o.id = f.key_id || '@v' || f.version)
     ON CONFLICT (key_id, state_version) DO NOTHING)`);
    parts.push(`states AS (
     INSERT INTO failure_state (key_id, tenant, scope, run, principal, resource_id, tool_name, resource_class,
            auth_scope, error_class, side_effect_boundary, status, budget, retry_count, verifier_status, state,
            version, updated_at)
     SELECT r.key_id, r.tenant, r.scope, r.run, r.principal, r.resource_id, r.tool_name, r.resource_class,
            r.auth_scope, r.error_class, r.side_effect_boundary, r.status, r.budget, r.retry_count, r.verifier_status,
            b.body::json, r.version, r.updated_at
       FROM json_to_recordset(${param(JSON.stringify(stateRows))}::json) AS r(key_id text,
            tenant text, scope text, run text, principal text, resource_id text, tool_name text, resource_class text,
            auth_scope text, error_class text, side_effect_boundary boolean, status text, budget int, retry_count int,
            verifier_status text, body bigint, version int, updated_at timestamptz)
       JOIN bodies b ON b.ord = r.body
     ON CONFLICT (key_id) DO UPDATE SET status = EXCLUDED.status, budget = EXCLUDED.budget,
            retry_count = EXCLUDED.retry_count, verifier_status = EXCLUDED.verifier_status,
            state = EXCLUDED.state, version = EXCLUDED.version, updated_at = EXCLUDED.updated_at)`);
  }
  if (outboxRows.length > 0) {
    parts.push(`outbox AS (
     INSERT INTO decision_outbox (id, tenant, key_id, state_version, state_snapshot, earlier)
     SELECT m.id, m.tenant, m.key_id, m.state_version, b.body::json, m.earlier
       FROM json_to_recordset(${param(JSON.stringify(outboxRows))}::json)
            AS m(id text, tenant text, key_id text, state_version int, body bigint, earlier json)
       LEFT JOIN bodies b ON b.ord = m.body
     ON CONFLICT (id) DO NOTHING)`);
  }
  const kept = (fold.memories ?? []).filter((w) => w.memory !== null);
  const dropped = (fold.memories ?? []).filter((w) => w.memory === null).map((w) => w.id);
  if (kept.length > 0) {
    // The memory travels as a JSON value inside the recordset (one parse); json, not jsonb: read back with
    // its key order, as failure_state's state is.
    parts.push(`remembered AS (
     INSERT INTO progress_memories (id, tenant, run, tool_name, memory, updated_at)
     SELECT r.id, r.tenant, r.run, r.tool_name, r.memory, now()
       FROM json_to_recordset(${param(JSON.stringify(kept.map(memoryRowOf)))}::json)
            AS r(id text, tenant text, run text, tool_name text, memory json)
     ON CONFLICT (id) DO UPDATE SET memory = EXCLUDED.memory, updated_at = EXCLUDED.updated_at)`);
  }
  if (dropped.length > 0) {
    parts.push(`forgotten AS (
     DELETE FROM progress_memories WHERE id = ANY(${param(dropped)}::text[]))`);
  }
  const { group, topic, next } = fold.checkpoints;
  if (next.size > 0) {
    parts.push(`checkpoints AS (
     INSERT INTO projector_checkpoints (consumer_group, topic, partition, next_offset, updated_at)
     SELECT ${param(group)}, ${param(topic)}, p, o, now()
       FROM unnest(${param([...next.keys()])}::int[], ${param([...next.values()].map(String))}::bigint[]) AS t(p, o)
     ON CONFLICT (consumer_group, topic, partition)
     DO UPDATE SET next_offset = GREATEST(projector_checkpoints.next_offset, EXCLUDED.next_offset), updated_at = now())`);
  }
  if (parts.length === 0) return null;
  // Prepared per shape (which parts it has): a handful of texts, each planned once per connection.
  const shape = parts.map((part) => /^\w+/.exec(part)![0]).join('+');
  return { name: `save-fold:${shape}`, text: `WITH ${parts.join(',\n')}\nSELECT 1`, params };
}

/**
 * The JSON texts of one statement, numbered from 1 in order of first use (WITH ORDINALITY): each outbox copy of a
 * state once (indexOf), each state row's document once (documentOf: without the key its columns hold).
 */
class SnapshotBodies {
  private readonly numbers = new Map<FailureState, number>();
  private readonly documents = new Map<FailureState, number>();
  private readonly texts: string[] = [];

  get size(): number {
    return this.texts.length;
  }

  indexOf(state: FailureState): number {
    return this.numbered(this.numbers, state, JSON.stringify);
  }

  documentOf(state: FailureState): number {
    return this.numbered(this.documents, state, stateDocumentText);
  }

  private numbered(numbers: Map<FailureState, number>, state: FailureState, text: (s: FailureState) => string) {
    let n = numbers.get(state);
    if (n === undefined) {
      this.texts.push(text(state));
      n = this.texts.length;
      numbers.set(state, n);
    }
    return n;
  }

  bytes(): Buffer {
    return joinBodies(this.texts);
  }
}

function stateRowOf(s: FailureState) {
  return {
    ...stateKeyColumnsOf(s),
    status: s.status,
    budget: s.budget,
    retry_count: s.retryCount,
    verifier_status: s.verifierStatus,
    version: s.version,
    updated_at: s.updatedAt,
  };
}

function memoryRowOf(w: ProgressMemoryWrite) {
  const key = w.memory!.origin.key;
  return { id: w.id, tenant: key.tenant, run: key.run, tool_name: key.equivalenceKey.tool_name, memory: w.memory };
}

interface OutboxRow {
  readonly id: string;
  readonly tenant: string;
  readonly key_id: string;
  readonly state_version: number;
  /** The copy's number among the statement's bodies; null: no copy. */
  readonly body: number | null;
  /** The key's transitions before this one in the fold, each as a delta against this row's state (0053). */
  earlier?: EarlierTransition[];
}

/**
 * The outbox rows of a fold: one per key whose latest state this statement writes and whose latest transition
 * needs a decision. That row refers to the state failure_state gets (decisions by reference, migration 0039) and
 * carries the key's earlier transitions in the fold as deltas against it (migration 0053: one row per key and
 * transaction; ids stay "<key id>@v<version>" per transition). A transition with no such row to travel in (its
 * key's latest transition needed no decision), or whose delta could not give its state back byte for byte, is a
 * row of its own with a copy of its state.
 */
function outboxRowsOf(fold: FoldWrites, bodies: SnapshotBodies): OutboxRow[] {
  const written = new Map(fold.states.map((s) => [s.keyId, s]));
  const referring = new Map<string, OutboxRow>();
  for (const e of fold.outbox) {
    if (written.get(e.keyId)?.version !== e.stateVersion) continue;
    referring.set(e.keyId, { id: e.id, tenant: e.tenant, key_id: e.keyId, state_version: e.stateVersion, body: null });
  }
  const rows: OutboxRow[] = [];
  for (const e of fold.outbox) {
    const latest = referring.get(e.keyId);
    if (latest !== undefined && latest.state_version === e.stateVersion) {
      rows.push(latest);
      continue;
    }
    const delta = latest === undefined ? null : stateDelta(e.snapshot, written.get(e.keyId)!);
    if (latest !== undefined && delta !== null) {
      (latest.earlier ??= []).push([e.stateVersion, delta]);
      continue;
    }
    rows.push({
      id: e.id,
      tenant: e.tenant,
      key_id: e.keyId,
      state_version: e.stateVersion,
      body: bodies.indexOf(e.snapshot),
    });
  }
  // A fold lists a key's transitions in the order they happened, so `earlier` is in version order already;
  // sorted anyway, since the relay decides them in that order.
  for (const row of referring.values()) row.earlier?.sort((a, b) => a[0] - b[0]);
  return rows;
}
