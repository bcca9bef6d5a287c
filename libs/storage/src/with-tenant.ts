import type pg from 'pg';
import { inPooledTransaction, isSqlDatabase } from './pooled-transaction.js';
import type { SqlDatabase, SqlSession } from './sql-database.js';

/** The NOLOGIN role tenant-scoped reads run as; it has SELECT only, and row-level security applies to it. */
export const AUDIT_ROLE = 'tokencircuit_audit';
/** The transaction-local setting the row-level-security policies compare each row's tenant with. */
export const TENANT_SETTING = 'tokencircuit.tenant';

/**
 * Runs `fn` in a read-only transaction that sees only `tenant`'s rows: SET LOCAL ROLE to the audit
 * role and set tokencircuit.tenant for this transaction only, so nothing leaks into the pooled
 * connection afterwards. This guards the product's own query paths; it is not a sandbox for
 * untrusted SQL (any session may set a custom setting), see docs/schema.md.
 *
 * Takes a node-postgres pool (one round trip to open the scope, `fn` gets the pooled client) or any
 * SqlDatabase, e.g. PGlite in the embedded mode (`fn` gets a SqlSession): the same role and setting, so
 * row-level security isolates tenants in both modes.
 */
export function withTenant<T>(pool: pg.Pool, tenant: string, fn: (client: pg.PoolClient) => Promise<T>): Promise<T>;
export function withTenant<T>(db: SqlDatabase, tenant: string, fn: (session: SqlSession) => Promise<T>): Promise<T>;
export async function withTenant<T>(
  target: pg.Pool | SqlDatabase,
  tenant: string,
  fn: ((client: pg.PoolClient) => Promise<T>) | ((session: SqlSession) => Promise<T>),
): Promise<T> {
  if (typeof tenant !== 'string' || tenant.trim() === '') {
    throw new TypeError(`withTenant: tenant must be a non-empty string, got ${JSON.stringify(tenant)}`);
  }
  if (isSqlDatabase(target)) return inTenantTransaction(target, tenant, fn as (session: SqlSession) => Promise<T>);
  return onPooledClient(target, tenant, fn as (client: pg.PoolClient) => Promise<T>);
}

// One round trip for the three statements (preflight runs through here on its hot path). set_config takes no bind
// parameter inside a multi-statement query, so the tenant goes in as an escaped literal.
function onPooledClient<T>(pool: pg.Pool, tenant: string, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  return inPooledTransaction(
    pool,
    (client) =>
      `BEGIN READ ONLY; SET LOCAL ROLE ${AUDIT_ROLE}; SELECT set_config('${TENANT_SETTING}', ${client.escapeLiteral(tenant)}, true)`,
    fn,
  );
}

// A SqlDatabase opens the transaction itself; PGlite's query takes one statement, so the scope is three.
function inTenantTransaction<T>(db: SqlDatabase, tenant: string, fn: (session: SqlSession) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.query('SET TRANSACTION READ ONLY');
    await tx.query(`SET LOCAL ROLE ${AUDIT_ROLE}`);
    await tx.query('SELECT set_config($1, $2, true)', [TENANT_SETTING, tenant]);
    return fn(tx);
  });
}
