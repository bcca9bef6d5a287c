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
  close(): Promise<void>;
}

/** node-postgres adapter: one pooled client per transaction. */
export function pgDatabase(pool: Pool): SqlDatabase {
  // An idle pooled connection that the server drops (restart, failover, pg_terminate_backend) emits
  // 'error' on the pool; unhandled, that would crash the process. The next query reconnects or fails loudly.
  if (pool.listenerCount('error') === 0) pool.on('error', () => undefined);
  return {
    ...pgSession(pool),
    async transaction<T>(work: (tx: SqlSession) => Promise<T>): Promise<T> {
      const client: PoolClient = await pool.connect();
      try {
        await client.query('BEGIN');
        const value = await work(pgSession(client));
        await client.query('COMMIT');
        return value;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}
