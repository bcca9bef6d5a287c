import type { SqlSession } from './sql-database.js';

/**
 * Runs `work` inside a savepoint of the open transaction: when it throws, what it wrote is undone and the
 * transaction goes on (Postgres would otherwise refuse every later statement). `name` must be an identifier.
 */
export async function withSavepoint<T>(tx: SqlSession, name: string, work: () => Promise<T>): Promise<T> {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new TypeError(`withSavepoint: not a savepoint name: ${name}`);
  await tx.query(`SAVEPOINT ${name}`);
  try {
    const result = await work();
    await tx.query(`RELEASE SAVEPOINT ${name}`);
    return result;
  } catch (error) {
    await tx.query(`ROLLBACK TO SAVEPOINT ${name}`);
    throw error;
  }
}
