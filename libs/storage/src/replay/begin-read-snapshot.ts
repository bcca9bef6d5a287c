import type { SqlSession } from '../sql-database.js';

/**
 * Starts a REPEATABLE READ, READ ONLY transaction on a dedicated connection: every later read on it sees
 * one snapshot while other sessions go on committing (end it with endReadSnapshot).
 */
export async function beginReadSnapshot(session: SqlSession): Promise<void> {
  await session.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
}
