import pg from 'pg';
import { explainConnectionError } from './connection-errors.js';

/**
 * Connects once and runs SELECT 1, so a service learns at start (not at its first event) that
 * DATABASE_URL points nowhere; an unreachable server raises a DatabaseUnreachableError naming it.
 */
export async function checkDatabase(databaseUrl: string, timeoutMs = 10_000): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: timeoutMs });
  try {
    await client.connect();
    await client.query('SELECT 1');
  } catch (error) {
    throw explainConnectionError(error, databaseUrl);
  } finally {
    await client.end().catch(() => undefined);
  }
}
