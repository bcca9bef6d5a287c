import type { SqlSession } from '../sql-database.js';
import type { SignedAnchor } from './audit-anchor.js';

/** Keeps each tenant's newest published anchor (replacing the one before) and the events seq it covers. */
export async function saveAnchorHeads(db: SqlSession, anchors: readonly SignedAnchor[]): Promise<void> {
  if (anchors.length === 0) return;
  await db.query(
    `INSERT INTO audit_anchor_heads (tenant, anchor, events_through, updated_at)
     SELECT a->>'tenant', a, (a->'events'->>'through')::bigint, now() FROM jsonb_array_elements($1::jsonb) AS a
     ON CONFLICT (tenant) DO UPDATE SET anchor = EXCLUDED.anchor, events_through = EXCLUDED.events_through,
            updated_at = now()`,
    [JSON.stringify(anchors)],
  );
}
