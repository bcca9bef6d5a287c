import type { SqlSession } from '../sql-database.js';
import { parseSignedAnchor, type SignedAnchor } from './audit-anchor.js';

/** The anchor last published for a tenant, and the agent_events seq the anchorer had read through. */
export interface AnchorHeadRecord {
  readonly anchor: SignedAnchor;
  readonly eventsThrough: number;
}

/**
 * What the anchorer published last, per tenant (every tenant the session sees), to resume after a restart.
 * A stored anchor that is not well formed throws: the table is written only by saveAnchorHeads. The
 * signature is not checked here (an anchor signed with a rotated-out key is still a valid position).
 */
export async function readAnchorHeads(db: SqlSession): Promise<AnchorHeadRecord[]> {
  const { rows } = await db.query<{ anchor: unknown; events_through: string }>(
    'SELECT anchor, events_through::text AS events_through FROM audit_anchor_heads ORDER BY tenant',
  );
  return rows.map((row) => ({ anchor: parseSignedAnchor(row.anchor), eventsThrough: Number(row.events_through) }));
}
