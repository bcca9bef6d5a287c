import type { SqlSession } from '../sql-database.js';
import { quoteSchema } from './quote-schema.js';

/**
 * Points the session's unqualified names at `schema` alone. PGlite is one session, so replay moves it
 * between the live schema and the one it rebuilds into; on Postgres a connection gets its own instead.
 */
export async function setSearchPath(session: SqlSession, schema: string): Promise<void> {
  await session.query(`SET search_path TO ${quoteSchema(schema)}`);
}
