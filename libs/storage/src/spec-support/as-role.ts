import type pg from 'pg';
import { pgDatabase, type SqlSession } from '../sql-database.js';
import { TENANT_SETTING } from '../with-tenant.js';

/**
 * Runs `work` in a transaction as `role` (the test user is a superuser, which row-level security never
 * applies to), with `tenant` as the session's tenant when given: how the services and the API reach the
 * tables in production. Rolled back or committed like any transaction of pgDatabase.
 */
export function asRole<T>(
  pool: pg.Pool,
  role: 'tokencircuit_writer' | 'tokencircuit_notifier' | 'tokencircuit_audit',
  work: (tx: SqlSession) => Promise<T>,
  tenant?: string,
): Promise<T> {
  return pgDatabase(pool).transaction(async (tx) => {
    await tx.query(`SET LOCAL ROLE ${role}`);
    if (tenant !== undefined) await tx.query(`SELECT set_config('${TENANT_SETTING}', $1, true)`, [tenant]);
    return work(tx);
  });
}
