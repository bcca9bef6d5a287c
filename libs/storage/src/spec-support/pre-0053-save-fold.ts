import { stateDelta, type FailureState, type OutboxEntry, type StateDelta } from '@tokencircuit/governance';
import type { SqlSession } from '../sql-database.js';
import { joinBodies, splitBodies } from '../projection/json-bodies.js';
import { stateDocumentText, stateKeyColumnsOf } from '../state/state-document.js';

/**
 * What the projector's save wrote from migration 0047 to 0052, for specs that fill a database the way that build
 * did: a key's latest transition of the fold refers to the state written and names, in dependents_from, the
 * lowest version of the rows before it, each a row of its own with a delta against that state (or a copy where
 * a delta could not give it back); a version a pending row still needs is kept in outbox_states before
 * failure_state moves past it.
 */
export async function savePre0053Fold(
  tx: SqlSession,
  fold: { readonly states: readonly FailureState[]; readonly outbox: readonly OutboxEntry[] },
): Promise<void> {
  const parts: string[] = [];
  const params: unknown[] = [];
  const param = (value: unknown) => `$${params.push(value)}`;
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
    // the whole outbox. Rows of earlier versions may carry a delta against it (migration 0047): the referring
    // row names from which version on, and each of those ids is one more probe while it stays pending.
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
     INSERT INTO decision_outbox (id, tenant, key_id, state_version, state_snapshot, base_version, state_delta,
            dependents_from)
     SELECT m.id, m.tenant, m.key_id, m.state_version, b.body::json, m.base_version, m.state_delta,
            m.dependents_from
       FROM json_to_recordset(${param(JSON.stringify(outboxRows))}::json)
            AS m(id text, tenant text, key_id text, state_version int, body bigint, base_version int, state_delta json,
                 dependents_from int)
       LEFT JOIN bodies b ON b.ord = m.body
     ON CONFLICT (id) DO NOTHING)`);
  }
  if (parts.length === 0) return;
  await tx.query(`WITH ${parts.join(',\n')}\nSELECT 1`, params);
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

interface OutboxRow {
  readonly id: string;
  readonly tenant: string;
  readonly key_id: string;
  readonly state_version: number;
  /** The copy's number among the statement's bodies; null: no copy. */
  readonly body: number | null;
  readonly base_version?: number;
  readonly state_delta?: StateDelta;
  dependents_from?: number;
}

/**
 * The outbox rows of a fold. A transition whose state is the one this statement writes to failure_state
 * refers to it (decisions by reference, migration 0039). One before it in the chunk carries what its state
 * changes against that one (decisions by delta, migration 0047) when the latest state has its own outbox row
 * in this statement, which keeps it readable for them (dependents_from); otherwise, or when the delta could not
 * give the state back byte for byte, it keeps a copy.
 */
function outboxRowsOf(
  fold: { readonly states: readonly FailureState[]; readonly outbox: readonly OutboxEntry[] },
  bodies: SnapshotBodies,
): OutboxRow[] {
  const written = new Map(fold.states.map((s) => [s.keyId, s]));
  const referring = new Map<string, OutboxRow>();
  const rows = fold.outbox.map((e): OutboxRow => {
    const row = { id: e.id, tenant: e.tenant, key_id: e.keyId, state_version: e.stateVersion, body: null };
    if (written.get(e.keyId)?.version === e.stateVersion) referring.set(e.keyId, row);
    return row;
  });
  return rows.map((row, i) => {
    if (referring.get(row.key_id) === row) return row;
    const snapshot = fold.outbox[i]!.snapshot;
    const latest = referring.get(row.key_id);
    const delta = latest === undefined ? null : stateDelta(snapshot, written.get(row.key_id)!);
    if (latest === undefined || delta === null) return { ...row, body: bodies.indexOf(snapshot) };
    latest.dependents_from = Math.min(latest.dependents_from ?? row.state_version, row.state_version);
    return { ...row, base_version: latest.state_version, state_delta: delta };
  });
}
