import type { SqlSession } from '../sql-database.js';
import { MAX_OUTBOX_ERROR_CHARS } from './outbox-error-text.js';
import { PENDING_BY_ID } from './pending-by-id.js';

/**
 * Counts a failed attempt on rows a round claimed and could not finish (its transaction rolled back), and
 * keeps the error. Rows published or parked meanwhile (by another instance) are left as they are.
 */
export async function recordOutboxFailure(db: SqlSession, ids: readonly string[], error: string): Promise<void> {
  if (ids.length === 0) return;
  await db.query(
    `UPDATE decision_outbox SET attempts = attempts + 1, last_error = $1
      WHERE id = ANY($2::text[]) AND ${PENDING_BY_ID}`,
    [error.slice(0, MAX_OUTBOX_ERROR_CHARS), ids],
  );
}
