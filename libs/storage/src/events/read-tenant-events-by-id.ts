import type { CausingEvent } from '../audit/intervention-record.js';
import type { SqlDatabase } from '../sql-database.js';
import { TENANT_SETTING } from '../with-tenant.js';
import { readEventsById } from './read-events-by-id.js';

/**
 * `readEventsById` for a service that serves every tenant but may read events only under the tenant
 * row-level-security policy (the notifier, migration 0036): the tenant setting is set for this one
 * transaction, in the service's own role, so the read sees `tenant`'s rows and nothing else, even if
 * `tenant` and `ids` disagreed. Unlike withTenant it keeps the login role, which needs no membership in
 * the audit role.
 */
export function readTenantEventsById(db: SqlDatabase, tenant: string, ids: readonly string[]): Promise<CausingEvent[]> {
  return db.transaction(async (tx) => {
    await tx.query('SELECT set_config($1, $2, true)', [TENANT_SETTING, tenant]);
    return readEventsById(tx, tenant, ids);
  });
}
