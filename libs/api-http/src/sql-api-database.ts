import type { ToolCall } from '@tokencircuit/contracts';
import type { FailureState } from '@tokencircuit/governance';
import { AUDIT_ROLE, TENANT_SETTING, type SqlDatabase, type SqlSession } from '@tokencircuit/storage';
import type { ApiDatabase } from './api-database.port.js';
import { clientValueErrorsAs400 } from './http/database-input-error.js';
import { STATE_CANDIDATES_SQL } from './preflight/state-candidates.sql.js';

/**
 * Any SqlDatabase (PGlite in the embedded mode): the same SQL, and tenant reads under the same role and
 * setting as storage's withTenant, so row-level security isolates tenants in both modes.
 */
export function sqlApiDatabase(db: SqlDatabase): ApiDatabase {
  const read = <T>(tenant: string, work: (session: SqlSession) => Promise<T>): Promise<T> => {
    if (tenant.trim() === '') throw new TypeError('tenant must be a non-empty string');
    return clientValueErrorsAs400(() =>
      db.transaction(async (tx) => {
        await tx.query('SET TRANSACTION READ ONLY');
        await tx.query(`SET LOCAL ROLE ${AUDIT_ROLE}`);
        await tx.query('SELECT set_config($1, $2, true)', [TENANT_SETTING, tenant]);
        return work(tx);
      }),
    );
  };
  return {
    states: {
      candidates: (tenant: string, call: ToolCall): Promise<FailureState[]> =>
        read(tenant, async (session) => {
          const { rows } = await session.query<{ state: FailureState }>(STATE_CANDIDATES_SQL, [
            tenant,
            call.run,
            call.tool,
            call.principal,
          ]);
          return rows.map((row) => row.state);
        }),
    },
    tenants: { read },
    async ping() {
      await db.query('SELECT 1');
    },
    close: () => db.close(),
  };
}
