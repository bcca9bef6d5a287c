import pg from 'pg';
import { probeDockerEngine, type DockerEngine } from './docker-engine.js';

/** The server the int tests use unless DATABASE_URL names another: the one CI and dev machines run. */
export const DEFAULT_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/postgres';
export const POSTGRES_IMAGE = 'postgres:16-alpine';

export interface ResolvedDatabase {
  readonly url: string;
  readonly source: string;
  readonly teardown?: () => Promise<void>;
}

/** Connects and runs one query; returns the failure reason instead of throwing. */
export async function postgresProblem(url: string, timeoutMs = 5_000): Promise<string | null> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: timeoutMs });
  try {
    await client.connect();
    await client.query('select 1');
    return null;
  } catch (error) {
    return error instanceof Error ? error.message || error.name : String(error);
  } finally {
    await client.end().catch(() => {});
  }
}

const redact = (url: string): string => url.replace(/\/\/([^:/@]+):[^@]*@/, '//$1:***@');

/** DATABASE_URL → the default local server → a Postgres container → an error naming all three. */
export async function resolveDatabase(
  docker: () => Promise<DockerEngine> = probeDockerEngine,
): Promise<ResolvedDatabase> {
  const explicit = process.env.DATABASE_URL?.trim();
  if (explicit) {
    const problem = await postgresProblem(explicit);
    if (problem) throw new Error(`DATABASE_URL=${redact(explicit)} does not answer: ${problem}`);
    return { url: explicit, source: 'DATABASE_URL' };
  }
  const localProblem = await postgresProblem(DEFAULT_DATABASE_URL);
  if (!localProblem) return { url: DEFAULT_DATABASE_URL, source: 'local server on 127.0.0.1:5432' };

  const engine = await docker();
  if (engine.answers) {
    const { PostgreSqlContainer } = await import('@testcontainers/postgresql');
    const container = await new PostgreSqlContainer(POSTGRES_IMAGE).start();
    return {
      url: container.getConnectionUri(),
      source: `container ${POSTGRES_IMAGE}`,
      teardown: async () => {
        await container.stop();
      },
    };
  }
  throw new Error(
    [
      'No PostgreSQL for the integration tests. Provide one of:',
      '  1. DATABASE_URL=postgres://user@host:port/db of a server where the user may CREATE DATABASE;',
      `  2. a local server at ${DEFAULT_DATABASE_URL} (tried: ${localProblem});`,
      `     Debian: pg_ctlcluster --skip-systemctl-redirect <version> main start`,
      `  3. a Docker engine, for a ${POSTGRES_IMAGE} container (tried: ${engine.reason}).`,
    ].join('\n'),
  );
}
