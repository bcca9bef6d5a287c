import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { explainConnectionError, migrate } from '@tokencircuit/storage';

export interface TestDatabase {
  /** Connection URL of the new database (same server and credentials as inject('databaseUrl')). */
  readonly url: string;
  readonly name: string;
  /** A pool on the new database; drop() ends it. */
  readonly pool: pg.Pool;
  /** Ends the pool and drops the database, even if a test left connections open. */
  drop(): Promise<void>;
}

export interface TestDatabaseOptions {
  /** Run the migrations (default true); false gives an empty database, e.g. to test the migrations. */
  readonly migrate?: boolean;
}

/**
 * A uniquely named, migrated database on the shared test server: one per spec file, created in
 * beforeAll and dropped in afterAll (emmett's postgreSQLTestDatabase), so spec files never share rows.
 */
export async function createTestDatabase(prefix = 'tc_test', options: TestDatabaseOptions = {}): Promise<TestDatabase> {
  const serverUrl = inject('databaseUrl');
  const name = uniqueDatabaseName(prefix);
  await onServer(serverUrl, (admin) => createDatabase(admin, name));

  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const drop = async (): Promise<void> => {
    await pool.end();
    await onServer(serverUrl, async (admin) => {
      // pool.end() resolves before the server has seen every Terminate; a FORCE drop now would
      // kill those backends mid-goodbye and surface as an unhandled 57P01 on a closing client.
      await waitForDisconnects(admin, name);
      await admin.query(`DROP DATABASE IF EXISTS ${admin.escapeIdentifier(name)} WITH (FORCE)`);
    });
  };
  const pool = new pg.Pool({ connectionString: url.toString(), max: 10 });
  try {
    if (options.migrate ?? true) await migrate(url.toString());
  } catch (error) {
    await drop();
    throw error;
  }
  return { url: url.toString(), name, pool, drop };
}

/** prefix_<time>_<random>: sortable, collision-free across parallel runs, within the 63-byte identifier limit. */
function uniqueDatabaseName(prefix: string): string {
  const safePrefix =
    prefix
      .toLowerCase()
      .replace(/[^a-z0-9_]/g, '_')
      .slice(0, 32) || 'tc_test';
  return `${safePrefix}_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
}

async function createDatabase(admin: pg.Client, name: string, attempt = 1): Promise<void> {
  try {
    await admin.query(`CREATE DATABASE ${admin.escapeIdentifier(name)}`);
  } catch (error) {
    // 55006: template1 is briefly in use (another CREATE DATABASE copying it); worth a short retry.
    if ((error as { code?: string }).code !== '55006' || attempt >= 5) throw error;
    await new Promise((resolve) => setTimeout(resolve, 100 * attempt));
    await createDatabase(admin, name, attempt + 1);
  }
}

async function waitForDisconnects(admin: pg.Client, name: string, maxWaitMs = 5_000): Promise<void> {
  const deadline = Date.now() + maxWaitMs;
  while (Date.now() < deadline) {
    const { rows } = await admin.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1',
      [name],
    );
    if (rows[0]?.n === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  // Connections a test leaked open: WITH (FORCE) ends them.
}

async function onServer(serverUrl: string, work: (admin: pg.Client) => Promise<unknown>): Promise<void> {
  const admin = new pg.Client({ connectionString: serverUrl, connectionTimeoutMillis: 10_000 });
  try {
    await admin.connect();
  } catch (error) {
    throw explainConnectionError(error, serverUrl);
  }
  try {
    await work(admin);
  } finally {
    await admin.end();
  }
}
