import pg from 'pg';
import { pgSession, type SqlSession } from '../sql-database.js';

/**
 * A session whose search_path names a schema that does not exist, so no unqualified table name resolves:
 * an operation that reads it can only have qualified its tables with the schema it was given (as replay
 * reads the live schema from a PGlite session moved to the replay schema). end() closes it.
 */
export async function sessionElsewhere(url: string): Promise<SqlSession & { end(): Promise<void> }> {
  const client = new pg.Client({ connectionString: url, options: '-c search_path=no_such_schema' });
  await client.connect();
  return { ...pgSession(client), end: () => client.end() };
}
