import type pg from 'pg';
import type { ToolCall } from '@tokencircuit/contracts';
import { preflightSelection, type FailureState } from '@tokencircuit/governance';
import {
  pgSession,
  pingDatabase,
  selectCandidateStates,
  sqlLiteral,
  TENANT_SETTING,
  AUDIT_ROLE,
  withTenant,
  writeAsTenant,
  type SqlDatabase,
  type SqlSession,
} from '@tokencircuit/storage';
import type { ApiDatabase } from './api-database.port.js';
import { clientValueErrorsAs400 } from './http/database-input-error.js';
import { CandidateCache } from './preflight/candidate-cache.js';
import { CandidateCacheListener } from './preflight/candidate-cache-listener.js';

/**
 * The API's database: a node-postgres pool in production, any SqlDatabase (PGlite when embedded). The same
 * storage operations either way, tenant reads through storage's withTenant so row-level security isolates
 * tenants in both modes; on a pool, the spend ledger's writes open their transaction and reserve in one
 * round trip each (a pool's connection can send several statements in one message, PGlite's cannot).
 */
export function apiDatabase(target: pg.Pool | SqlDatabase, options: ApiDatabaseOptions = {}): ApiDatabase {
  const pool = isPool(target) ? target : null;
  const ownsPool = options.ownsPool ?? true;
  const read = <T>(tenant: string, work: (session: SqlSession) => Promise<T>): Promise<T> =>
    clientValueErrorsAs400(() =>
      pool === null
        ? withTenant(target as SqlDatabase, tenant, work)
        : withTenant(pool, tenant, (client) => work(pgSession(client))),
    );
  const readCandidates = (tenant: string, call: ToolCall): Promise<FailureState[]> =>
    read(tenant, (session) => selectCandidateStates(session, preflightSelection(tenant, call)));
  // On a pool, preflight's candidates come from memory while failure_state's change notifications are received
  // (migration 0046); embedded PGlite answers in-process and needs no cache.
  const cacheEntries = options.candidateCacheEntries ?? DEFAULT_CANDIDATE_CACHE_ENTRIES;
  const cache = pool !== null && cacheEntries > 0 ? new CandidateCache(readCandidates, cacheEntries) : null;
  const listener = cache !== null ? new CandidateCacheListener(pool!, cache) : null;
  return {
    states: {
      // Under row-level security like every tenant read: the tenant predicate picks the index, the
      // policy makes another tenant's rows unreachable even if the predicate were wrong.
      candidates: (tenant: string, call: ToolCall): Promise<FailureState[]> => {
        if (cache === null) return readCandidates(tenant, call);
        listener!.ensureListening();
        return cache.candidates(tenant, call);
      },
      ...(cache === null
        ? {}
        : {
            watch: (hashes: readonly string[], changed: () => void, lost: () => void) => {
              listener!.ensureListening();
              return cache.watch(hashes, changed, lost);
            },
          }),
    },
    tenants:
      pool === null
        ? { read }
        : {
            read,
            readAtOnce: (tenant, statement) =>
              clientValueErrorsAs400(() => readAtOnceAsTenant(pool, tenant, statement)),
          },
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
    close: async () => {
      await listener?.close();
      if (ownsPool) await (pool === null ? (target as SqlDatabase).close() : pool.end());
    },
  };
}

/** How many preflight selections an API process keeps in memory by default (API_PREFLIGHT_CACHE_ENTRIES). */
export const DEFAULT_CANDIDATE_CACHE_ENTRIES = 20_000;

export interface ApiDatabaseOptions {
  /** false: close() leaves the pool open (its owner ends it). Default true. */
  readonly ownsPool?: boolean;
  /** Preflight selections kept in memory on a pool (0: every preflight reads). Default DEFAULT_CANDIDATE_CACHE_ENTRIES. */
  readonly candidateCacheEntries?: number;
}

/** The same test as storage's withTenant: a SqlDatabase opens transactions itself, a pool does not. */
function isPool(target: pg.Pool | SqlDatabase): target is pg.Pool {
  return typeof (target as Partial<SqlDatabase>).transaction !== 'function';
}

type LiteralStatement = (literal: (value: string) => string) => string;

/**
 * A tenant read's scope (withTenant's: read only, the audit role, the tenant setting, all local) and one statement in
 * one message: one round trip where withTenant's BEGIN, statement and COMMIT take three.
 */
const readAtOnceAsTenant = (pool: pg.Pool, tenant: string, statement: LiteralStatement) =>
  inOneMessage(
    pool,
    `SET TRANSACTION READ ONLY; SET LOCAL ROLE ${AUDIT_ROLE}; ${tenantSetting(tenant)}; ${statement(sqlLiteral)}`,
  );

/** The tenant setting and one statement in one message (the spend ledger's writes). One round trip. */
const atOnceAsTenant = (pool: pg.Pool, tenant: string, statement: LiteralStatement) =>
  inOneMessage(pool, `${tenantSetting(tenant)}; ${statement(sqlLiteral)}`);

const tenantSetting = (tenant: string) => `SELECT set_config('${TENANT_SETTING}', ${sqlLiteral(tenant)}, true)`;

/**
 * Several statements in one simple-query message on a pooled connection: Postgres runs them as one implicit
 * transaction, so local settings apply to the statements after them and end with it, and a failing statement leaves
 * nothing behind (nor an open transaction on the connection). The last statement's rows.
 */
async function inOneMessage(pool: pg.Pool, statements: string): Promise<Record<string, unknown>[]> {
  const client = await pool.connect();
  try {
    const results = (await client.query(statements)) as unknown as pg.QueryResult[];
    return (results.at(-1)?.rows ?? []) as Record<string, unknown>[];
  } finally {
    client.release();
  }
}
