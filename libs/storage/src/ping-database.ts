import type { SqlSession } from './sql-database.js';

/** Resolves once the database answers a trivial query now; rejects with the driver's own error otherwise. */
export async function databaseAnswers(db: SqlSession): Promise<void> {
  await db.query('SELECT 1');
}

/** Whether the database answers a trivial query now (readiness probes): never throws. */
export async function pingDatabase(db: SqlSession): Promise<boolean> {
  return databaseAnswers(db)
    .then(() => true)
    .catch(() => false);
}
