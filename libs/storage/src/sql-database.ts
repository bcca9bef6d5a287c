import type { Pool, PoolClient } from 'pg';

/** What the pipeline needs from a SQL session: both node-postgres and PGlite satisfy it. */
export interface SqlSession {
  query<R = Record<string, unknown>>(text: string, params?: readonly unknown[]): Promise<{ rows: R[] }>;
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
    query: async <R>(text: string, params?: readonly unknown[]) => {
      const result = await pool.query(text, params as unknown[]);
      return { rows: result.rows as R[] };
    },
    async transaction<T>(work: (tx: SqlSession) => Promise<T>): Promise<T> {
      const client: PoolClient = await pool.connect();
      try {
        await client.query('BEGIN');
        const session: SqlSession = {
          query: async <R>(text: string, params?: readonly unknown[]) => {
            const result = await client.query(text, params as unknown[]);
            return { rows: result.rows as R[] };
          },
        };
        const value = await work(session);
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
