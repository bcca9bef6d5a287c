import type { SqlSession } from '../sql-database.js';
import { quoteSchema } from './quote-schema.js';

/** Drops a schema and everything in it; a schema already gone is no error. */
export async function dropSchema(session: SqlSession, schema: string): Promise<void> {
  await session.query(`DROP SCHEMA IF EXISTS ${quoteSchema(schema)} CASCADE`);
}
