import type pg from 'pg';
import { inPooledTransaction, isSqlDatabase } from './pooled-transaction.js';
import type { SqlDatabase, SqlSession } from './sql-database.js';
import { TENANT_SETTING } from './with-tenant.js';

/**
 * Runs `fn` in a read-write transaction as the connection's own role with tokencircuit.tenant set for this
 * transaction only, so row-level security keeps the writes to `tenant`'s rows (the API's spend ledger). A pool
 * opens it in one round trip (`fn` gets the pooled client); a SqlDatabase, e.g. PGlite, in two.
 */
export function writeAsTenant<T>(pool: pg.Pool, tenant: string, fn: (client: pg.PoolClient) => Promise<T>): Promise<T>;
export function writeAsTenant<T>(db: SqlDatabase, tenant: string, fn: (session: SqlSession) => Promise<T>): Promise<T>;
export function writeAsTenant<T>(
  target: pg.Pool | SqlDatabase,
  tenant: string,
  fn: ((client: pg.PoolClient) => Promise<T>) | ((session: SqlSession) => Promise<T>),
): Promise<T> {
  if (isSqlDatabase(target)) {
    return target.transaction(async (tx) => {
      await tx.query('SELECT set_config($1, $2, true)', [TENANT_SETTING, tenant]);
      return (fn as (session: SqlSession) => Promise<T>)(tx);
    });
  }
  return inPooledTransaction(
    target,
    (client) => `BEGIN; SELECT set_config('${TENANT_SETTING}', ${client.escapeLiteral(tenant)}, true)`,
    fn as (client: pg.PoolClient) => Promise<T>,
  );
}
