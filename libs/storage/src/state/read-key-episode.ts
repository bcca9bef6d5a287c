import type { SqlSession } from '../sql-database.js';
import type { FailureStateRow } from '../tables/failure-state.js';

/** Where a key stands now: its current failure episode and status. */
export type KeyEpisode = Pick<FailureStateRow, 'status'> & { readonly episode: number };

/** The key's current episode (1 for states written before the core numbered them) and status, or null. */
export async function readKeyEpisode(session: SqlSession, keyId: string): Promise<KeyEpisode | null> {
  const { rows } = await session.query<{ episode: number | null; status: string }>(
    `SELECT (state->>'episode')::int AS episode, status FROM failure_state WHERE key_id = $1`,
    [keyId],
  );
  const row = rows[0];
  return row ? { episode: Number(row.episode ?? 1), status: row.status } : null;
}
