import type { ClientBase, Pool, PoolClient } from 'pg';

/** What the pipeline needs from a SQL session: both node-postgres and PGlite satisfy it. */
export interface SqlSession {
  query<R = Record<string, unknown>>(text: string, params?: readonly unknown[]): Promise<{ rows: R[] }>;
}

/** A session that can also prepare a statement once per connection under a name, then only bind and execute it. */
export interface PreparingSession extends SqlSession {
  queryPrepared<R = Record<string, unknown>>(
    name: string,
    text: string,
    params: readonly unknown[],
  ): Promise<{ rows: R[] }>;
}

/** A hot-path read prepares its statement where the session can, and runs it plainly where it cannot (PGlite). */
export function queryPreparedIfAble<R>(
  session: SqlSession,
  name: string,
  text: string,
  params: readonly unknown[],
): Promise<{ rows: R[] }> {
  const preparing = session as Partial<PreparingSession>;
  return typeof preparing.queryPrepared === 'function'
    ? preparing.queryPrepared<R>(name, text, params)
    : session.query<R>(text, params);
}

/** A node-postgres client or pool as a session; a pool prepares a named statement on each of its connections. */
export function pgSession(client: ClientBase | Pool): PreparingSession {
  return {
    query: async <R>(text: string, params?: readonly unknown[]) => {
      const result = await client.query(text, params as unknown[] | undefined);
      return { rows: result.rows as R[] };
    },
    queryPrepared: async <R>(name: string, text: string, params: readonly unknown[]) => {
      const result = await client.query({ name, text, values: params as unknown[] });
      return { rows: result.rows as R[] };
    },
  };
}

/** A database the projector can run one transaction per batch against. */
export interface SqlDatabase extends SqlSession {
  transaction<T>(work: (tx: SqlSession) => Promise<T>): Promise<T>;
  /** transaction() whose first statement travels with its BEGIN (see transactionOpenedBy); optional. */
  transactionOpenedBy?<T>(opening: string, work: (tx: SqlSession, rows: unknown[]) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/**
 * A transaction's first statement, written without parameters (values inlined as literals) so that it can be
 * sent in one message with the BEGIN, and how its rows are read.
 */
export interface OpeningStatement<V> {
  readonly text: string;
  read(rows: readonly unknown[]): V;
}

/**
 * Runs `work` in a transaction opened by `opening`: where the database can (node-postgres), BEGIN and the
 * statement go in one message, so the transaction's first round trip does both. Each round trip costs most
 * when the host is busy; a projector transaction and a decision round each begin this way. Elsewhere
 * (PGlite, in-process) the statement is simply the transaction's first.
 */
export function transactionOpenedBy<V, T>(
  db: SqlDatabase,
  opening: OpeningStatement<V>,
  work: (tx: SqlSession, value: V) => Promise<T>,
): Promise<T> {
  if (db.transactionOpenedBy) return db.transactionOpenedBy(opening.text, (tx, rows) => work(tx, opening.read(rows)));
  return db.transaction(async (tx) => work(tx, opening.read((await tx.query(opening.text)).rows)));
}

/** node-postgres adapter: one pooled client per transaction. */
export function pgDatabase(pool: Pool): SqlDatabase {
  // An idle pooled connection that the server drops (restart, failover, pg_terminate_backend) emits
  // 'error' on the pool; unhandled, that would crash the process. The next query reconnects or fails loudly.
  if (pool.listenerCount('error') === 0) pool.on('error', () => undefined);
  return {
    ...pgSession(pool),
    transaction: <T>(work: (tx: SqlSession) => Promise<T>): Promise<T> =>
      inTransaction(pool, async (client) => {
        await client.query('BEGIN');
        return work(pgSession(client));
      }),
    transactionOpenedBy: <T>(opening: string, work: (tx: SqlSession, rows: unknown[]) => Promise<T>): Promise<T> =>
      inTransaction(pool, async (client) => {
        // A simple query of two statements: one message, one round trip, an answer for each.
        const answers = (await client.query(`BEGIN;\n${opening}`)) as unknown as { rows: unknown[] }[];
        return work(pgSession(client), answers[1]!.rows);
      }),
    close: () => pool.end(),
  };
}

async function inTransaction<T>(pool: Pool, work: (client: PoolClient) => Promise<T>): Promise<T> {
  const client: PoolClient = await pool.connect();
  try {
    const value = await work(client);
    await client.query('COMMIT');
    return value;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}
