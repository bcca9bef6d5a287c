import type { SqlSession } from './sql-database.js';

/** Readiness: resolves when the database answers a trivial statement. */
export async function pingDatabase(session: SqlSession): Promise<void> {
  await session.query('SELECT 1');
}
