import type pg from 'pg';
import type { ToolCall } from '@tokencircuit/contracts';
import { preflightSelection, type FailureState } from '@tokencircuit/governance';
import {
  pgSession,
  pingDatabase,
  selectCandidateStates,
  TENANT_SETTING,
  withTenant,
  writeAsTenant,
  type SqlDatabase,
  type SqlSession,
} from '@tokencircuit/storage';
import type { ApiDatabase } from './api-database.port.js';
import { clientValueErrorsAs400 } from './http/database-input-error.js';

/**
 * The API's database: a node-postgres pool in production, any SqlDatabase (PGlite when embedded). The same
 * storage operations either way, tenant reads through storage's withTenant so row-level security isolates
 * tenants in both modes; on a pool, the spend ledger's writes open their transaction and reserve in one
 * round trip each (a pool's connection can send several statements in one message, PGlite's cannot).
 */
export function apiDatabase(target: pg.Pool | SqlDatabase): ApiDatabase {
  const pool = isPool(target) ? target : null;
  const read = <T>(tenant: string, work: (session: SqlSession) => Promise<T>): Promise<T> =>
    clientValueErrorsAs400(() =>
      pool === null
        ? withTenant(target as SqlDatabase, tenant, work)
        : withTenant(pool, tenant, (client) => work(pgSession(client))),
    );
  return {
    states: {
      // Under row-level security like every tenant read: the tenant predicate picks the index, the
      // policy makes another tenant's rows unreachable even if the predicate were wrong.
      candidates: (tenant: string, call: ToolCall): Promise<FailureState[]> =>
        read(tenant, (session) => selectCandidateStates(session, preflightSelection(tenant, call))),
    },
    tenants: { read },
    spend:
      pool === null
        ? {
            write: (tenant, work) => clientValueErrorsAs400(() => writeAsTenant(target as SqlDatabase, tenant, work)),
          }
        : {
            write: (tenant, work) =>
              clientValueErrorsAs400(() => writeAsTenant(pool, tenant, (client) => work(pgSession(client)))),
            atOnce: (tenant, statement) => clientValueErrorsAs400(() => atOnceAsTenant(pool, tenant, statement)),
          },
    ping: () => pingDatabase(pool === null ? (target as SqlDatabase) : pgSession(pool)),
    close: () => (pool === null ? (target as SqlDatabase).close() : pool.end()),
  };
}

/** The same test as storage's withTenant: a SqlDatabase opens transactions itself, a pool does not. */
function isPool(target: pg.Pool | SqlDatabase): target is pg.Pool {
  return typeof (target as Partial<SqlDatabase>).transaction !== 'function';
}

/**
 * The tenant setting and one statement in one simple-query message: Postgres runs a message's statements as one
 * implicit transaction, so the setting (local) applies to the statement and a failing statement leaves nothing
 * behind (nor an open transaction on the connection). One round trip.
 */
async function atOnceAsTenant(
  pool: pg.Pool,
  tenant: string,
  statement: (literal: (value: string) => string) => string,
): Promise<Record<string, unknown>[]> {
  const client = await pool.connect();
  try {
    const literal = (value: string) => client.escapeLiteral(value);
    const results = (await client.query(
      `SELECT set_config('${TENANT_SETTING}', ${literal(tenant)}, true); ${statement(literal)}`,
    )) as unknown as pg.QueryResult[];
    return (results.at(-1)?.rows ?? []) as Record<string, unknown>[];
  } finally {
    client.release();
  }
}
