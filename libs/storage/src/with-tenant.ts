import type pg from 'pg';

/** The NOLOGIN role tenant-scoped reads run as; it has SELECT only, and row-level security applies to it. */
export const AUDIT_ROLE = 'tokencircuit_audit';
/** The transaction-local setting the row-level-security policies compare each row's tenant with. */
export const TENANT_SETTING = 'tokencircuit.tenant';

/**
 * Runs `fn` in a read-only transaction that sees only `tenant`'s rows: SET LOCAL ROLE to the audit
 * role and set tokencircuit.tenant for this transaction only, so nothing leaks into the pooled
 * connection afterwards. This guards the product's own query paths; it is not a sandbox for
 * untrusted SQL (any session may set a custom setting), see docs/schema.md.
 */
export async function withTenant<T>(
  pool: pg.Pool,
  tenant: string,
  fn: (client: pg.PoolClient) => Promise<T>,
): Promise<T> {
  if (typeof tenant !== 'string' || tenant.trim() === '') {
    throw new TypeError(`withTenant: tenant must be a non-empty string, got ${JSON.stringify(tenant)}`);
  }
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    try {
      // One round trip for the three statements (preflight runs through here on its hot path). set_config
      // takes no bind parameter inside a multi-statement query, so the tenant goes in as an escaped literal.
      await client.query(
        `BEGIN READ ONLY; SET LOCAL ROLE ${AUDIT_ROLE}; SELECT set_config('${TENANT_SETTING}', ${client.escapeLiteral(tenant)}, true)`,
      );
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
