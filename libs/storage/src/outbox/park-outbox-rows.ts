import type { SqlSession } from '../sql-database.js';
import { MAX_OUTBOX_ERROR_CHARS } from './outbox-error-text.js';

/** A row to set aside, and why (kept in last_error). */
export interface OutboxRowToPark {
  readonly id: string;
  readonly reason: string;
}

/** Parks rows (their decision or records fail whatever the retry): counted as an attempt, never claimed again. */
export async function parkOutboxRows(tx: SqlSession, rows: readonly OutboxRowToPark[]): Promise<void> {
  if (rows.length === 0) return;
  await tx.query(
    `UPDATE decision_outbox AS o SET parked_at = now(), attempts = o.attempts + 1, last_error = p.reason
       FROM unnest($1::text[], $2::text[]) AS p(id, reason) WHERE o.id = p.id`,
    [rows.map((p) => p.id), rows.map((p) => p.reason.slice(0, MAX_OUTBOX_ERROR_CHARS))],
  );
}
