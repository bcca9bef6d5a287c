import type pg from 'pg';
import type { ToolCall } from '@tokencircuit/contracts';
import { preflightSelection, type FailureState } from '@tokencircuit/governance';
import { pgSession, pingDatabase, selectCandidateStates, withTenant, type SqlSession } from '@tokencircuit/storage';
import type { ApiDatabase } from './api-database.port.js';
import { clientValueErrorsAs400 } from './http/database-input-error.js';

/** node-postgres adapter: storage's withTenant on the pool, preflight's statement prepared per connection. */
export function pgApiDatabase(pool: pg.Pool): ApiDatabase {
  const read = <T>(tenant: string, work: (session: SqlSession) => Promise<T>): Promise<T> =>
    clientValueErrorsAs400(() => withTenant(pool, tenant, (client) => work(pgSession(client))));
  return {
    states: {
      // Under row-level security like every tenant read: the tenant predicate picks the index, the
      // policy makes another tenant's rows unreachable even if the predicate were wrong.
      candidates: (tenant: string, call: ToolCall): Promise<FailureState[]> =>
        read(tenant, (session) => selectCandidateStates(session, preflightSelection(tenant, call))),
    },
    tenants: { read },
    ping: () => pingDatabase(pgSession(pool)),
    close: () => pool.end(),
  };
}
