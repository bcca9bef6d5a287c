import type pg from 'pg';
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
