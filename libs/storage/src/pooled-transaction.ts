import type pg from 'pg';
import type { SqlDatabase } from './sql-database.js';

/** A SqlDatabase (PGlite, pgDatabase) opens transactions itself; a node-postgres pool does not. */
export function isSqlDatabase(target: pg.Pool | SqlDatabase): target is SqlDatabase {
  return typeof (target as Partial<SqlDatabase>).transaction === 'function';
}

/**
 * Runs `fn` on one pooled client inside the transaction `opening` starts (BEGIN and its settings, sent as one
 * message): COMMIT after it, ROLLBACK when it throws, and a client that cannot roll back is not given back.
 */
export async function inPooledTransaction<T>(
  pool: pg.Pool,
  opening: (client: pg.PoolClient) => string,
  fn: (client: pg.PoolClient) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    try {
      await client.query(opening(client));
      const result = await fn(client);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch((rollbackError: unknown) => {
        // A connection that cannot roll back must not go back to the pool.
        broken = rollbackError instanceof Error ? rollbackError : new Error(String(rollbackError));
      });
      throw error;
    }
  } finally {
    client.release(broken);
  }
}
