import type { SqlSession } from './sql-database.js';

/** Whether the database answers a trivial query now (readiness probes): never throws. */
export async function pingDatabase(db: SqlSession): Promise<boolean> {
  return db
    .query('SELECT 1')
    .then(() => true)
    .catch(() => false);
}
