import type { SqlSession } from '../sql-database.js';

/**
 * Marks claimed rows published (counting the attempt): the claim never returns them again. The states the
 * projector kept for rows that referred to them (outbox_states, migration 0039) go in the same statement.
 */
export async function markOutboxPublished(tx: SqlSession, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  await tx.query(
    `WITH published AS (
       UPDATE decision_outbox SET published_at = now(), attempts = attempts + 1 WHERE id = ANY($1::text[])
       RETURNING key_id, state_version, state_snapshot IS NULL AS referred)
     DELETE FROM outbox_states k USING published p
      WHERE p.referred AND k.key_id = p.key_id AND k.state_version = p.state_version`,
    [ids],
  );
}
