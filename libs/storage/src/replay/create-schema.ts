import type { SqlSession } from '../sql-database.js';
import { quoteSchema } from './quote-schema.js';

/** Creates an empty schema (replay rebuilds into one); fails if it exists, so a run never writes into another's. */
export async function createSchema(session: SqlSession, schema: string): Promise<void> {
  await session.query(`CREATE SCHEMA ${quoteSchema(schema)}`);
}
