import type { ToolCall } from '@tokencircuit/contracts';
import { preflightSelection, type FailureState } from '@tokencircuit/governance';
import {
  pingDatabase,
  selectCandidateStates,
  TENANT_SETTING,
  withTenant,
  type SqlDatabase,
  type SqlSession,
} from '@tokencircuit/storage';
import type { ApiDatabase } from './api-database.port.js';
import { clientValueErrorsAs400 } from './http/database-input-error.js';

/**
 * Any SqlDatabase (PGlite in the embedded mode): the same storage operations, and tenant reads through
 * storage's withTenant, so row-level security isolates tenants in both modes.
 */
export function sqlApiDatabase(db: SqlDatabase): ApiDatabase {
  const read = <T>(tenant: string, work: (session: SqlSession) => Promise<T>): Promise<T> =>
    clientValueErrorsAs400(() => withTenant(db, tenant, work));
  return {
    states: {
      candidates: (tenant: string, call: ToolCall): Promise<FailureState[]> =>
        read(tenant, (session) => selectCandidateStates(session, preflightSelection(tenant, call))),
    },
    tenants: { read },
    spend: {
      write: (tenant, work) =>
        clientValueErrorsAs400(() =>
          db.transaction(async (tx) => {
            await tx.query('SELECT set_config($1, $2, true)', [TENANT_SETTING, tenant]);
            return work(tx);
          }),
        ),
    },
    ping: () => pingDatabase(db),
    close: () => db.close(),
  };
}
