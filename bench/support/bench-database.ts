import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { explainConnectionError, migrate } from '@tokencircuit/storage';

export interface BenchDatabase {
  readonly url: string;
  readonly name: string;
  /** A small pool for the benchmark's own reads (checkpoints, counts). */
  readonly pool: pg.Pool;
  drop(): Promise<void>;
}

/**
 * A fresh, migrated database on the server of DATABASE_URL (default: the local Postgres), so every run
 * starts from empty tables and leaves nothing behind. The name says what made it.
 */
export async function createBenchDatabase(prefix: string): Promise<BenchDatabase> {
  const serverUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const name = `${prefix}_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: serverUrl, connectionTimeoutMillis: 10_000 });
    try {
      await client.connect();
    } catch (error) {
      throw explainConnectionError(error, serverUrl);
    }
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  await migrate(url.toString());
  const pool = new pg.Pool({ connectionString: url.toString(), max: 2 });
  return {
    url: url.toString(),
    name,
    pool,
    drop: async () => {
      await pool.end();
      // Pools end before the server has seen every goodbye; a FORCE drop now would kill those backends
      // and surface as an unhandled 57P01 on a closing client, so wait (bounded) for them to leave.
      const deadline = Date.now() + 5_000;
      while (Date.now() < deadline && (await connectionsTo(serverUrl, name)) > 0) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}

async function connectionsTo(serverUrl: string, database: string): Promise<number> {
  const client = new pg.Client({ connectionString: serverUrl, connectionTimeoutMillis: 10_000 });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1',
      [database],
    );
    return rows[0]?.n ?? 0;
  } finally {
    await client.end();
  }
}
