import type { SqlDatabase, SqlSession } from '@tokencircuit/storage';

/**
 * What replay needs of a database, Postgres or PGlite alike: a consistent read of the live tables
 * (events and the state they produced, from one snapshot) and a fresh schema to rebuild into.
 */
export interface ReplayDatabase {
  /** e.g. "postgres://…/tokencircuit" or "PGlite at ./.data/pglite", for messages. */
  readonly description: string;
  /** Reads of the live tables; the caller qualifies them with `liveSchema`. */
  readonly live: SqlSession;
  readonly liveSchema: string;
  /** Creates `schema`, applies every migration inside it, and returns a database whose unqualified names resolve there. */
  openReplaySchema(schema: string): Promise<SqlDatabase>;
  dropSchema(schema: string): Promise<void>;
  /** Ends the snapshot and every connection. */
  close(): Promise<void>;
}
