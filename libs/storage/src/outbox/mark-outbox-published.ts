import type { SqlSession } from '../sql-database.js';

/**
 * Marks claimed rows published (counting the attempt): the claim never returns them again. A state the
 * projector kept for rows that refer to it (outbox_states, migration 0039) goes in the same statement once
 * none of them is left unpublished: its referring row and the rows of versions from its dependents_from on,
 * which carry a delta against it (migration 0047). Without the referring row (purged), the copy stays.
 */
export async function markOutboxPublished(tx: SqlSession, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  // The statement's parts read the table as it was before it: the rows published now still look pending,
  // hence the id <> ALL($1).
  await tx.query(
    `WITH published AS (
       UPDATE decision_outbox SET published_at = now(), attempts = attempts + 1 WHERE id = ANY($1::text[])
       RETURNING key_id, coalesce(base_version, state_version) AS base, state_snapshot IS NULL AS referred),
     bases AS (SELECT DISTINCT key_id, base FROM published WHERE referred)
     DELETE FROM outbox_states k USING bases b, decision_outbox r
      WHERE k.key_id = b.key_id AND k.state_version = b.base AND r.id = b.key_id || '@v' || b.base
        AND NOT EXISTS (SELECT 1 FROM decision_outbox d
                         WHERE d.id = ANY (ARRAY(SELECT b.key_id || '@v' || g
                                                   FROM generate_series(coalesce(r.dependents_from, b.base), b.base) g))
                           AND d.published_at IS NULL AND d.id <> ALL($1::text[]))`,
    [ids],
  );
}
