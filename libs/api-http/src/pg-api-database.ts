import type pg from 'pg';
import type { ToolCall } from '@tokencircuit/contracts';
import { preflightSelection, type FailureState } from '@tokencircuit/governance';
import {
  pgSession,
  pingDatabase,
  selectCandidateStates,
  TENANT_SETTING,
  withTenant,
  type SqlSession,
} from '@tokencircuit/storage';
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
    spend: {
      write: (tenant, work) => clientValueErrorsAs400(() => writeAsTenant(pool, tenant, work)),
      atOnce: (tenant, statement) => clientValueErrorsAs400(() => atOnceAsTenant(pool, tenant, statement)),
    },
    ping: () => pingDatabase(pgSession(pool)),
    close: () => pool.end(),
  };
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

/** A read-write transaction as the pool's own role with the tenant set (one round trip to open it). */
async function writeAsTenant<T>(pool: pg.Pool, tenant: string, work: (session: SqlSession) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    try {
      await client.query(`BEGIN; SELECT set_config('${TENANT_SETTING}', ${client.escapeLiteral(tenant)}, true)`);
      const result = await work(pgSession(client));
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch((rollbackError: unknown) => {
        broken = rollbackError instanceof Error ? rollbackError : new Error(String(rollbackError));
      });
      throw error;
    }
  } finally {
    client.release(broken);
  }
}
