import type pg from 'pg';
import type { ToolCall } from '@tokencircuit/contracts';
import type { FailureState } from '@tokencircuit/governance';
import { withTenant, type SqlSession } from '@tokencircuit/storage';
import type { ApiDatabase } from './api-database.port.js';
import { clientValueErrorsAs400 } from './http/database-input-error.js';
import { STATE_CANDIDATES_SQL, STATE_CANDIDATES_STATEMENT } from './preflight/state-candidates.sql.js';

/** node-postgres adapter: a named prepared statement for preflight, storage's withTenant for the rest. */
export function pgApiDatabase(pool: pg.Pool): ApiDatabase {
  return {
    states: {
      async candidates(tenant: string, call: ToolCall): Promise<FailureState[]> {
        // Under row-level security like every tenant read: the tenant predicate picks the index, the
        // policy makes another tenant's rows unreachable even if the predicate were wrong.
        return clientValueErrorsAs400(() =>
          withTenant(pool, tenant, async (client) => {
            const result = await client.query<{ state: FailureState }>({
              name: STATE_CANDIDATES_STATEMENT,
              text: STATE_CANDIDATES_SQL,
              values: [tenant, call.run, call.tool, call.principal],
            });
            return result.rows.map((row) => row.state);
          }),
        );
      },
    },
    tenants: {
      read: <T>(tenant: string, work: (session: SqlSession) => Promise<T>) =>
        clientValueErrorsAs400(() => withTenant(pool, tenant, (client) => work(sessionOf(client)))),
    },
    async ping() {
      await pool.query('SELECT 1');
    },
    close: () => pool.end(),
  };
}

function sessionOf(client: pg.PoolClient): SqlSession {
  return {
    query: async <R>(text: string, params?: readonly unknown[]) => {
      const result = await client.query(text, params as unknown[] | undefined);
      return { rows: result.rows as R[] };
    },
  };
}
