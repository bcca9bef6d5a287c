import type { SqlSession } from '../sql-database.js';

/** Ends the transaction beginReadSnapshot started (it wrote nothing, so COMMIT only lets the snapshot go). */
export async function endReadSnapshot(session: SqlSession): Promise<void> {
  await session.query('COMMIT');
}
