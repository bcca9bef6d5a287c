import type { PGlite } from '@electric-sql/pglite';
import type { SqlDatabase, SqlSession } from './sql-database.js';

/**
 * PGlite adapter of the SQL port (embedded mode): the same SQL as Postgres, in-process. PGlite runs one
 * connection and serialises transactions itself, so the projector, decision service and API can share it.
 */
export function pgliteDatabase(db: PGlite): SqlDatabase {
  const session = (runner: Pick<PGlite, 'query'>): SqlSession => ({
    query: async <R>(text: string, params?: readonly unknown[]) => {
      const result = await runner.query<R>(text, params as unknown[]);
      return { rows: result.rows };
    },
  });
  return {
    ...session(db),
    transaction: <T>(work: (tx: SqlSession) => Promise<T>) => db.transaction((tx) => work(session(tx))),
    close: () => db.close(),
  };
}
