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
export function pgSession(client: ClientBase | Pool): PreparingSession & StatementBatchSession {
  return {
    query: async <R>(text: string, params?: readonly unknown[]) => {
      const result = await client.query(text, params as unknown[] | undefined);
      return { rows: result.rows as R[] };
    },
    queryPrepared: async <R>(name: string, text: string, params: readonly unknown[]) => {
      const result = await client.query({ name, text, values: params as unknown[] });
      return { rows: result.rows as R[] };
    },
    queryInOneMessage: (statements: readonly string[]) => simpleQueryRows(client, statements),
  };
}

/** One simple-protocol message of several statements; node-postgres answers one result, or an array of them. */
async function simpleQueryRows(client: ClientBase | Pool, statements: readonly string[]): Promise<unknown[][]> {
  if (statements.length === 0) return [];
  const answer = (await client.query(statements.join(';\n'))) as unknown as { rows: unknown[] } | { rows: unknown[] }[];
  return Array.isArray(answer) ? answer.map((a) => a.rows) : [answer.rows];
}

/** A database the projector can run one transaction per batch against. */
export interface SqlDatabase extends SqlSession {
  transaction<T>(work: (tx: SqlSession) => Promise<T>): Promise<T>;
  /** transaction() whose first statements travel with its BEGIN (see transactionOpenedBy); optional. */
  transactionOpenedBy?<T>(
    statements: readonly string[],
    work: (tx: SqlSession, answers: readonly (readonly unknown[])[]) => Promise<T>,
  ): Promise<T>;
  close(): Promise<void>;
}

/** A statement written without parameters (values inlined as literals), and how its rows are read. */
export interface InlineStatement<V> {
  readonly text: string;
  read(rows: readonly unknown[]): V;
}

/**
 * The statements that open a transaction, sent in one message with the BEGIN, in order: each is planned and
 * run after the one before it ends, with a snapshot of its own (READ COMMITTED), so a read placed after a
 * lock sees what committed while the lock was awaited.
 */
export interface OpeningStatement<V> {
  readonly statements: readonly string[];
  read(answers: readonly (readonly unknown[])[]): V;
}

export const openingOf = <V>(statement: InlineStatement<V>): OpeningStatement<V> => ({
  statements: [statement.text],
  read: (answers) => statement.read(answers[0]!),
});

/**
 * Runs `work` in a transaction opened by `opening`: where the database can (node-postgres), BEGIN and the
 * statements go in one message, so the transaction's first round trip does them all. Each round trip costs
 * most when the host is busy; a projector transaction and a decision round each begin this way. Elsewhere
 * (PGlite, in-process) the statements are simply the transaction's first, one after another.
 */
export function transactionOpenedBy<V, T>(
  db: SqlDatabase,
  opening: OpeningStatement<V>,
  work: (tx: SqlSession, value: V) => Promise<T>,
): Promise<T> {
  if (db.transactionOpenedBy) {
    return db.transactionOpenedBy(opening.statements, (tx, answers) => work(tx, opening.read(answers)));
  }
  return db.transaction(async (tx) => work(tx, opening.read(await queryInOneMessage(tx, opening.statements))));
}

/**
 * Statements without parameters, in order, in one message where the session can (node-postgres: a simple
 * query of several statements, each with its own snapshot), one after another where it cannot; the rows of each.
 */
export async function queryInOneMessage(
  session: SqlSession,
  statements: readonly string[],
): Promise<(readonly unknown[])[]> {
  const inOne = (session as Partial<StatementBatchSession>).queryInOneMessage;
  if (typeof inOne === 'function') return inOne(statements);
  const answers: (readonly unknown[])[] = [];
  for (const text of statements) answers.push((await session.query(text)).rows);
  return answers;
}

/** A session that can send several statements in one message (queryInOneMessage uses it where it exists). */
export interface StatementBatchSession extends SqlSession {
  queryInOneMessage(statements: readonly string[]): Promise<(readonly unknown[])[]>;
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
    transactionOpenedBy: <T>(
      statements: readonly string[],
      work: (tx: SqlSession, answers: readonly (readonly unknown[])[]) => Promise<T>,
    ): Promise<T> =>
      inTransaction(pool, async (client) => {
        // One message, one round trip, an answer for each statement (the BEGIN's first).
        const answers = await simpleQueryRows(client, ['BEGIN', ...statements]);
        return work(pgSession(client), answers.slice(1));
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
