import type pg from 'pg';

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
