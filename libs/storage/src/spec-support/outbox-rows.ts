import type pg from 'pg';
import type { FailureState } from '@tokencircuit/governance';
import {
  claimedRowOf,
  OUTBOX_ROW_COLUMNS,
  type ClaimedTransition,
  type StoredOutboxRow,
} from '../outbox/claim-outbox-rows.js';
import { OUTBOX_SNAPSHOT_JOINS } from '../outbox/outbox-snapshot.js';
import type { SqlSession } from '../sql-database.js';

export interface OutboxRowSeed {
  readonly id: string;
  readonly tenant?: string;
  readonly keyId?: string;
  readonly stateVersion?: number;
  /** SQL expressions, e.g. "now() - interval '2 days'". */
  readonly createdAt?: string;
  readonly publishedAt?: string;
  readonly parkedAt?: string;
}

/** Inserts outbox rows as the projector would (snapshot reduced to a marker the specs can read back). */
export async function seedOutboxRows(pool: pg.Pool, seeds: readonly OutboxRowSeed[]): Promise<void> {
  for (const s of seeds) {
    await pool.query(
      `INSERT INTO decision_outbox (id, tenant, key_id, state_version, state_snapshot, created_at, published_at, parked_at)
       VALUES ($1, $2, $3, $4, $5, ${s.createdAt ?? 'now()'}, ${s.publishedAt ?? 'NULL'}, ${s.parkedAt ?? 'NULL'})`,
      [s.id, s.tenant ?? 'acme', s.keyId ?? `key-${s.id}`, s.stateVersion ?? 1, JSON.stringify({ marker: s.id })],
    );
  }
}

export interface OutboxRowState {
  readonly id: string;
  readonly attempts: number;
  readonly published: boolean;
  readonly parked: boolean;
  readonly last_error: string | null;
}

export async function outboxRowStates(pool: pg.Pool): Promise<OutboxRowState[]> {
  const { rows } = await pool.query<OutboxRowState>(
    `SELECT id, attempts, published_at IS NOT NULL AS published, parked_at IS NOT NULL AS parked, last_error
       FROM decision_outbox ORDER BY id`,
  );
  return rows;
}

/**
 * The outbox of a busy fleet between vacuums: `published` rows already published, whose entries are still in
 * the pending index, and the `pending` ids still pending, on a table that autovacuum leaves alone (its
 * statistics predate all of it). Where the planner is tempted to walk the pending index for a few ids.
 */
export async function seedBusyOutbox(pool: pg.Pool, published: number, pending: readonly string[]): Promise<void> {
  await pool.query(`ALTER TABLE decision_outbox SET (autovacuum_enabled = false)`);
  await pool.query(
    `INSERT INTO decision_outbox (id, tenant, key_id, state_version, state_snapshot)
     SELECT 'published-' || n, 'acme', 'k-' || n, 1, '{}'::json FROM generate_series(1, $1::int) AS n`,
    [published],
  );
  await pool.query(
    `INSERT INTO decision_outbox (id, tenant, key_id, state_version, state_snapshot)
     SELECT id, 'acme', 'k-' || id, 1, '{}'::json FROM unnest($1::text[]) AS id`,
    [pending],
  );
  await pool.query(`UPDATE decision_outbox SET published_at = now() WHERE id LIKE 'published-%'`);
}

/**
 * A session that explains each statement instead of running it (same text, same parameters) and keeps the
 * JSON plans: what a storage operation's own statement gets from the planner.
 */
export function explainingSession(pool: pg.Pool, plans: string[]): SqlSession {
  return {
    query: async <R>(text: string, params?: readonly unknown[]) => {
      const { rows } = await pool.query<{ 'QUERY PLAN': unknown }>(
        `EXPLAIN (FORMAT JSON) ${text}`,
        params as unknown[],
      );
      plans.push(JSON.stringify(rows[0]!['QUERY PLAN']));
      return { rows: [] as R[] };
    },
  };
}

/** One transition of the outbox as the relay would decide it: its id, version, kind of row and rebuilt state. */
export interface StoredTransition {
  readonly id: string;
  readonly keyId: string;
  readonly stateVersion: number;
  /** 'copy': its row holds its state; 'delta': a delta row before 0053; 'reference': a row's own state, read where it
   * is kept; 'earlier': one of a row's earlier transitions (0053). */
  readonly kind: 'copy' | 'delta' | 'reference' | 'earlier';
  /** The outbox row that carries it. */
  readonly rowId: string;
  readonly snapshot: FailureState | null;
}

/** Every transition of the outbox (pending, published or parked), rebuilt as the claim rebuilds them, by id. */
export async function readOutboxTransitions(session: SqlSession): Promise<StoredTransition[]> {
  const { rows } = await session.query<StoredOutboxRow & { kind: StoredTransition['kind'] }>(
    `SELECT ${OUTBOX_ROW_COLUMNS},
            CASE WHEN o.state_snapshot IS NOT NULL THEN 'copy' WHEN o.state_delta IS NOT NULL THEN 'delta'
                 ELSE 'reference' END AS kind
       FROM decision_outbox o ${OUTBOX_SNAPSHOT_JOINS}`,
  );
  return rows
    .flatMap((stored) => {
      const row = claimedRowOf(stored);
      if (row.unreadable !== undefined) throw new TypeError(`outbox row ${row.id}: ${row.unreadable}`);
      const of = (t: ClaimedTransition, kind: StoredTransition['kind']): StoredTransition => ({
        id: t.id,
        keyId: row.keyId,
        stateVersion: t.stateVersion,
        kind,
        rowId: row.id,
        snapshot: t.stateSnapshot,
      });
      return [...row.earlier.map((t) => of(t, 'earlier')), of(row, stored.kind)];
    })
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}
