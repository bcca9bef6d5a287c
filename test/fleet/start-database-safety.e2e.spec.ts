import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { testBrokers, testKafka } from '@tokencircuit/testing';
import {
  PASSWORD_POSTGRES_SUPERUSER,
  postgresBinaries,
  startPasswordPostgres,
  type PasswordPostgres,
} from '../support/password-postgres.js';

// Issue 27, point 2: a connected service never creates or migrates a production database at start. A mistyped
// DATABASE_URL once created and migrated "nc_doesnotexist" and joined the fleet's projector group with it; an
// empty database was migrated by whichever service started first. Both must stop the start: one line, exit 4,
// naming `npm run migrate` (the only command, besides the embedded mode, that creates and migrates).
// Point 4: a wrong role or TLS refused by the server is a Postgres start failure too (one line, exit 4), not a
// stack trace with exit 1.

const ROOT = resolve(import.meta.dirname, '../..');
const KEY = 'start-database-safety-key-0123456789';

function databaseUrl(name: string, user?: string): string {
  const url = new URL(inject('databaseUrl'));
  url.pathname = `/${name}`;
  if (user !== undefined) url.username = user;
  return url.toString();
}

async function onServer<T>(work: (admin: pg.Client) => Promise<T>): Promise<T> {
  const admin = new pg.Client({ connectionString: inject('databaseUrl') });
  await admin.connect();
  try {
    return await work(admin);
  } finally {
    await admin.end();
  }
}

const databaseExists = (name: string) =>
  onServer(async (admin) => (await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount === 1);

const created: string[] = [];
afterAll(async () => {
  await onServer(async (admin) => {
    for (const name of created)
      await admin.query(`DROP DATABASE IF EXISTS ${admin.escapeIdentifier(name)} WITH (FORCE)`);
  });
});

/** Runs an entry point (tsx, as npm start and start:<app> do) until it exits; its output and exit code. */
function run(entry: string, env: Record<string, string>): Promise<{ code: number | null; lines: string[] }> {
  const { KAFKA_BROKERS: _k, DATABASE_URL: _d, TOKENCIRCUIT_API_KEYS: _a, ...inherited } = process.env;
  const child = spawn(process.execPath, ['--import', 'tsx', entry], {
    cwd: ROOT,
    env: { ...inherited, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((done, fail) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      fail(new Error(`${entry} did not exit within 90 s; its output:\n${output}`));
    }, 90_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      done({ code, lines: output.trim().split('\n') });
    });
  });
}

/** What every connected entry point needs besides the database: the shared broker, fresh topics and group. */
function connectedEnv(database: string): Record<string, string> {
  const prefix = `tc-dbsafe-${randomUUID().slice(0, 8)}`;
  return {
    KAFKA_BROKERS: testBrokers().join(','),
    DATABASE_URL: database,
    TOKENCIRCUIT_API_KEYS: `demo:${KEY}`,
    TOKENCIRCUIT_NOTIFY_FILE: 'examples/notify.json',
    PD_ROUTING_KEY: 'routing-key-0123456789abcdef0123',
    SLACK_WEBHOOK_URL: 'https://hooks.slack.com/services/T0/B0/x',
    WEBHOOK_SECRET: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
    AGENT_EVENTS_TOPIC: `${prefix}.agent-events`,
    DLQ_TOPIC: `${prefix}.dlq`,
    INTERVENTIONS_TOPIC: `${prefix}.interventions`,
    EPISODES_TOPIC: `${prefix}.episodes`,
    PROJECTOR_GROUP_ID: `${prefix}-projector`,
    API_HTTP_PORT: '0',
    PROJECTOR_HTTP_PORT: '0',
    DECISION_HTTP_PORT: '0',
    NOTIFIER_HTTP_PORT: '0',
  };
}

const migrateLine = /^tokencircuit cannot start: .*"npm run migrate"/;

describe('npm start (connected) never creates or migrates its database', () => {
  it('a database that does not exist: exit 4, one line naming npm run migrate; nothing created, no group joined', async () => {
    const name = `nc_doesnotexist_${randomUUID().slice(0, 8)}`;
    created.push(name); // dropped afterwards should the start create it after all
    const env = connectedEnv(databaseUrl(name));

    const { code, lines } = await run('apps/fleet/src/main.ts', env);

    expect(lines).toEqual([expect.stringMatching(migrateLine)]);
    expect(lines[0]).toContain(`database "${name}" does not exist`);
    expect(code).toBe(4);
    expect(await databaseExists(name)).toBe(false);
    const admin = testKafka().admin();
    await admin.connect();
    try {
      const {
        groups: [group],
      } = await admin.describeGroups([env.PROJECTOR_GROUP_ID!]);
      // Dead: no member ever joined the projector group with the wrong database.
      expect(group?.state).toBe('Dead');
    } finally {
      await admin.disconnect();
    }
  });

  it('a database that exists but was never migrated: exit 4, naming npm run migrate; still empty', async () => {
    const name = `tc_unmigrated_${randomUUID().slice(0, 8)}`;
    created.push(name);
    await onServer((admin) => admin.query(`CREATE DATABASE ${admin.escapeIdentifier(name)}`));

    const { code, lines } = await run('apps/fleet/src/main.ts', connectedEnv(databaseUrl(name)));

    expect(lines).toEqual([expect.stringMatching(migrateLine)]);
    expect(lines[0]).toMatch(/is not migrated/);
    expect(code).toBe(4);
    const client = new pg.Client({ connectionString: databaseUrl(name) });
    await client.connect();
    try {
      const { rows } = await client.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_namespace WHERE nspname NOT LIKE 'pg\\_%' AND nspname NOT IN ('public', 'information_schema')`,
      );
      expect(rows[0]!.n).toBe(0); // no drizzle schema, no tables: nothing was migrated
    } finally {
      await client.end();
    }
  });
});

describe('every standalone service refuses a database that does not exist', () => {
  it.each(['projector', 'decision', 'notifier', 'api'])('%s: exit 4, one line naming npm run migrate', async (app) => {
    const name = `nc_doesnotexist_${randomUUID().slice(0, 8)}`;
    created.push(name);

    const { code, lines } = await run(`apps/${app}/src/main.ts`, connectedEnv(databaseUrl(name)));

    expect(lines).toEqual([expect.stringMatching(new RegExp(`^${app} cannot start: .*"npm run migrate"`))]);
    expect(code).toBe(4);
    expect(await databaseExists(name)).toBe(false);
  });
});

describe('a login the server refuses is one line and exit 4 (issue 27, point 4)', () => {
  it('a role that does not exist, naming the role and DATABASE_URL', async () => {
    const role = `tc_no_such_role_${randomUUID().slice(0, 8)}`;

    const { code, lines } = await run('apps/projector/src/main.ts', connectedEnv(databaseUrl('postgres', role)));

    expect(lines).toEqual([expect.stringMatching(/^projector cannot start: .*DATABASE_URL/)]);
    expect(lines[0]).toContain(`role "${role}" does not exist`);
    expect(code).toBe(4);
  });

  it('sslmode=verify-full against a server without TLS, naming sslmode', async () => {
    const url = new URL(databaseUrl('postgres'));
    // verify-full: node-postgres prints a deprecation warning of its own for 'require' (an alias of it today).
    url.searchParams.set('sslmode', 'verify-full');

    const { code, lines } = await run('apps/projector/src/main.ts', connectedEnv(url.toString()));

    expect(lines).toEqual([expect.stringMatching(/^projector cannot start: .*does not support SSL.*sslmode/)]);
    expect(code).toBe(4);
  });
});

// The shared server trusts every local login, so a wrong password needs a server that asks for one: a private
// cluster with scram-sha-256 (the server binaries are on every machine that runs these specs: Debian's package).
const binaries = postgresBinaries();
describe.skipIf('missing' in binaries)(
  `a password the server refuses is one line and exit 4 (issue 27, point 4)${'missing' in binaries ? `: skipped, ${binaries.missing}` : ''}`,
  () => {
    let server: PasswordPostgres | undefined;
    afterAll(() => server?.stop());

    it('a wrong password, naming the user and DATABASE_URL; the right one gets past the login', async () => {
      server = await startPasswordPostgres((binaries as { bin: string }).bin);
      const { user, password } = PASSWORD_POSTGRES_SUPERUSER;

      const wrong = await run('apps/projector/src/main.ts', connectedEnv(server.url(user, 'not-the-password')));

      expect(wrong.lines).toEqual([
        expect.stringMatching(/^projector cannot start: .*refused the password.*DATABASE_URL/),
      ]);
      expect(wrong.lines[0]).toContain(`user "${user}"`);
      expect(wrong.lines[0]).not.toContain('not-the-password');
      expect(wrong.code).toBe(4);
      // The right password is accepted: what stops the start then is the next check (never migrated).
      const right = await run('apps/projector/src/main.ts', connectedEnv(server.url(user, password)));
      expect(right.lines).toEqual([expect.stringMatching(/^projector cannot start: .*is not migrated/)]);
      expect(right.code).toBe(4);
    });
  },
);
