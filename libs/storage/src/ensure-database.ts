import pg from 'pg';
import { explainConnectionError, parseDatabaseUrl } from './connection-errors.js';

const CONNECT_TIMEOUT_MS = 10_000;

/**
 * Creates the database named in `databaseUrl` if it does not exist yet (through the server's
 * `postgres` maintenance database). Returns true when it created it. Unreachable servers raise a
 * DatabaseUnreachableError that names host and port.
 */
export async function ensureDatabase(databaseUrl: string): Promise<boolean> {
  const url = parseDatabaseUrl(databaseUrl);
  const database = decodeURIComponent(url.pathname.replace(/^\//, ''));
  if (!database)
    throw new TypeError('Database URL names no database, e.g. postgres://postgres@127.0.0.1:5432/tokencircuit');

  if (await canConnect(databaseUrl)) return false;

  const maintenance = new URL(url);
  maintenance.pathname = '/postgres';
  const client = new pg.Client({
    connectionString: maintenance.toString(),
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
  });
  try {
    await client.connect();
  } catch (error) {
    throw explainConnectionError(error, maintenance.toString());
  }
  try {
    await client.query(`CREATE DATABASE ${client.escapeIdentifier(database)}`);
    return true;
  } catch (error) {
    if ((error as { code?: string }).code === '42P04') return false; // created concurrently by someone else
    throw error;
  } finally {
    await client.end();
  }
}

async function canConnect(databaseUrl: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
  try {
    await client.connect();
    return true;
  } catch (error) {
    if ((error as { code?: string }).code === '3D000') return false; // invalid_catalog_name: no such database
    throw explainConnectionError(error, databaseUrl);
  } finally {
    await client.end().catch(() => undefined);
  }
}
