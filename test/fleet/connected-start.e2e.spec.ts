import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:net';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { ensureDatabase, migrate } from '@tokencircuit/storage';
import { testBrokers, testKafka, waitFor } from '@tokencircuit/testing';
import { runCli, jsonLines } from '../cli/support/run-cli.js';
import { freePort } from '../support/free-port.js';

const ROOT = resolve(import.meta.dirname, '../..');
const KEY = 'connected-start-key-0123456789';

/** Topic names no other run uses, so this start sees a broker without its topics (as on a fresh cluster). */
function freshTopics(): Record<string, string> {
  const prefix = `tc-start-${randomUUID().slice(0, 8)}`;
  return {
    AGENT_EVENTS_TOPIC: `${prefix}.agent-events`,
    DLQ_TOPIC: `${prefix}.dlq`,
    INTERVENTIONS_TOPIC: `${prefix}.interventions`,
    EPISODES_TOPIC: `${prefix}.episodes`,
  };
}

function databaseUrl(name: string): string {
  const url = new URL(inject('databaseUrl'));
  url.pathname = `/${name}`;
  return url.toString();
}

interface Started {
  readonly child: ChildProcess;
  output(): string;
  exited: Promise<number | null>;
}

/** `npm start` as a user runs it (tsx apps/fleet/src/main.ts), in its own process group. */
function start(env: Record<string, string | undefined>): Started {
  const { KAFKA_BROKERS: _k, DATABASE_URL: _d, TOKENCIRCUIT_API_KEYS: _a, ...inherited } = process.env;
  const child = spawn('npm', ['start', '--silent'], {
    cwd: ROOT,
    env: { ...inherited, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((ok) => child.on('exit', (code) => ok(code)));
  return { child, output: () => output, exited };
}

function stop(started: Started | undefined, signal: NodeJS.Signals = 'SIGKILL'): void {
  if (started?.child.pid) {
    try {
      process.kill(-started.child.pid, signal);
    } catch {
      // already gone
    }
  }
}

const databases: string[] = [];

/**
 * A fresh database as `npm run migrate` leaves it (created, migrated): a connected start never creates
 * nor migrates one (test/fleet/start-database-safety.e2e.spec.ts), so every start here gets one first.
 */
async function migratedDatabase(): Promise<string> {
  const name = `tc_start_${randomUUID().slice(0, 8)}`;
  databases.push(name);
  await ensureDatabase(databaseUrl(name));
  await migrate(databaseUrl(name));
  return name;
}
async function dropDatabases(): Promise<void> {
  const admin = new pg.Client({ connectionString: inject('databaseUrl') });
  await admin.connect();
  for (const name of databases) await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  await admin.end();
}

describe('npm start in connected mode (real Kafka and Postgres)', () => {
  let server: Started | undefined;
  afterAll(async () => {
    stop(server);
    await dropDatabases();
  });

  it('starts first time on a broker without its topics and a freshly migrated database, then plays the RFC scenarios', async () => {
    const topics = freshTopics();
    const database = await migratedDatabase();
    const [api, projector, decision] = [await freePort(), await freePort(), await freePort()];
    server = start({
      KAFKA_BROKERS: testBrokers().join(','),
      DATABASE_URL: databaseUrl(database),
      TOKENCIRCUIT_API_KEYS: `demo:${KEY}`,
      API_HTTP_PORT: String(api),
      PROJECTOR_HTTP_PORT: String(projector),
      DECISION_HTTP_PORT: String(decision),
      PROJECTOR_GROUP_ID: `tc-start-${randomUUID()}`,
      ...topics,
    });
    const url = await waitFor(() => /API\s+(http:\/\/\S+)/.exec(server!.output())?.[1], {
      maxWait: 120_000,
      name: `the connected server to print its URL; output so far:\n${server.output()}`,
    });
    expect(server.output()).toContain(`export TOKENCIRCUIT_URL=${url}`);

    // Every topic exists as defined, the DLQ accepting more than its source.
    const admin = testKafka().admin();
    await admin.connect();
    try {
      const { topics: metadata } = await admin.fetchTopicMetadata({ topics: Object.values(topics) });
      expect(Object.fromEntries(metadata.map((t) => [t.name, t.partitions.length]))).toEqual({
        [topics.AGENT_EVENTS_TOPIC!]: 6,
        [topics.DLQ_TOPIC!]: 1,
        [topics.INTERVENTIONS_TOPIC!]: 6,
        [topics.EPISODES_TOPIC!]: 6,
      });
    } finally {
      await admin.disconnect();
    }

    const demo = await runCli(['demo', '--json', '--url', url, '--api-key', KEY], { timeoutMs: 300_000 });
    expect(demo.code, demo.stderr).toBe(0);
    const interventions = jsonLines<{ kind: string; scenario: string }>(demo.stdout).filter(
      (r) => r.kind === 'intervention',
    );
    expect(new Set(interventions.map((r) => r.scenario))).toEqual(
      new Set([
        'rfc-1-permission',
        'rfc-2-validation',
        'rfc-3-transient',
        'rfc-4-empty-result',
        'rfc-5-side-effect',
        'page-unknown-refund',
      ]),
    );
  });
});

describe('a failed start is one line and an exit code naming what to fix', () => {
  const runs: Started[] = [];
  let blocker: Server | undefined;
  afterAll(async () => {
    for (const run of runs) stop(run);
    blocker?.close();
    await dropDatabases();
  });

  async function failedStart(env: Record<string, string | undefined>) {
    const run = start(env);
    runs.push(run);
    const code = await Promise.race([
      run.exited,
      new Promise<never>((_, reject) =>
        setTimeout(() => reject(new Error(`start did not fail within 120 s:\n${run.output()}`)), 120_000),
      ),
    ]);
    const lines = run.output().trim().split('\n');
    return { code, lines };
  }

  it('unreachable Kafka: exit 3 within KAFKA_CONNECT_TIMEOUT_MS, naming KAFKA_BROKERS', async () => {
    const database = await migratedDatabase();
    const { code, lines } = await failedStart({
      KAFKA_BROKERS: '127.0.0.1:1',
      KAFKA_CONNECT_TIMEOUT_MS: '3000',
      DATABASE_URL: databaseUrl(database),
      TOKENCIRCUIT_API_KEYS: `demo:${KEY}`,
    });
    expect(code).toBe(3);
    expect(lines).toEqual([
      expect.stringMatching(
        /^tokencircuit cannot start: Kafka at 127\.0\.0\.1:1 is unreachable: .*check KAFKA_BROKERS/,
      ),
    ]);
  });

  it('unreachable Postgres: exit 4, naming DATABASE_URL', async () => {
    const { code, lines } = await failedStart({
      KAFKA_BROKERS: testBrokers().join(','),
      DATABASE_URL: 'postgres://postgres@127.0.0.1:1/tokencircuit',
      TOKENCIRCUIT_API_KEYS: `demo:${KEY}`,
    });
    expect(code).toBe(4);
    expect(lines).toEqual([
      expect.stringMatching(
        /^tokencircuit cannot start: Cannot reach PostgreSQL at 127\.0\.0\.1:1\/tokencircuit .*DATABASE_URL/,
      ),
    ]);
  });

  it('missing topics with KAFKA_TOPICS=validate: exit 6, naming the topics and the command that creates them', async () => {
    const database = await migratedDatabase();
    const topics = freshTopics();
    const { code, lines } = await failedStart({
      KAFKA_BROKERS: testBrokers().join(','),
      DATABASE_URL: databaseUrl(database),
      TOKENCIRCUIT_API_KEYS: `demo:${KEY}`,
      KAFKA_TOPICS: 'validate',
      LOG_LEVEL: 'silent',
      ...topics,
    });
    expect(code).toBe(6);
    expect(lines).toEqual([
      `tokencircuit cannot start: missing Kafka topic(s) ${Object.values(topics).join(', ')}: run "npx tokencircuit topics ensure" or set KAFKA_TOPICS=create`,
    ]);
  });

  it('port in use after the projector joined its group (connected): exit 5, and the group has no member at once', async () => {
    const database = await migratedDatabase();
    const group = `tc-start-${randomUUID()}`;
    const taken = createServer();
    await new Promise<void>((ok) => taken.listen(0, '127.0.0.1', ok));
    const { port } = taken.address() as { port: number };
    try {
      const { code, lines } = await failedStart({
        KAFKA_BROKERS: testBrokers().join(','),
        DATABASE_URL: databaseUrl(database),
        TOKENCIRCUIT_API_KEYS: `demo:${KEY}`,
        // The API binds last: the projector's consumer has joined its group by the time the port is refused.
        API_HTTP_PORT: String(port),
        PROJECTOR_HTTP_PORT: String(await freePort()),
        DECISION_HTTP_PORT: String(await freePort()),
        PROJECTOR_GROUP_ID: group,
        // A member left behind by a dead process would stay for this long: far longer than the check below.
        PROJECTOR_SESSION_TIMEOUT_MS: '300000',
        ...freshTopics(),
      });
      expect(code).toBe(5);
      expect(lines.at(-1)).toBe(
        `tokencircuit cannot start: port ${port} on 127.0.0.1 is in use by another process: stop it, or set API_HTTP_PORT to a free port`,
      );
      const admin = testKafka().admin();
      await admin.connect();
      try {
        const {
          groups: [described],
        } = await admin.describeGroups([group]);
        // Empty, not Dead: the consumer had joined (a group that never had a member is Dead) and has left.
        expect(described).toMatchObject({ groupId: group, state: 'Empty', members: [] });
      } finally {
        await admin.disconnect();
      }
    } finally {
      taken.close();
    }
  });

  it('port in use (embedded): exit 5, naming API_HTTP_PORT', async () => {
    blocker = createServer();
    await new Promise<void>((ok) => blocker!.listen(0, '127.0.0.1', ok));
    const { port } = blocker.address() as { port: number };
    const dataDir = mkdtempSync(join(tmpdir(), 'tc-port-'));
    try {
      const { code, lines } = await failedStart({ TOKENCIRCUIT_DATA_DIR: dataDir, API_HTTP_PORT: String(port) });
      expect(code).toBe(5);
      expect(lines).toEqual([
        `tokencircuit cannot start: port ${port} on 127.0.0.1 is in use by another process: stop it, or set API_HTTP_PORT to a free port`,
      ]);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('npm start (embedded) records its URL for the CLI', () => {
  let run: Started | undefined;
  let dataDir: string | undefined;
  afterAll(() => {
    stop(run);
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('writes <data dir>/api-url, prints the TOKENCIRCUIT_URL to export, and the CLI finds it on any port', async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'tc-url-'));
    const port = await freePort();
    run = start({ TOKENCIRCUIT_DATA_DIR: dataDir, API_HTTP_PORT: String(port) });
    await waitFor(() => /API\s+http/.test(run!.output()), { maxWait: 120_000, name: `start:\n${run.output()}` });
    expect(readFileSync(join(dataDir, 'api-url'), 'utf8').trim()).toBe(`http://127.0.0.1:${port}`);
    expect(run.output()).toContain(`export TOKENCIRCUIT_URL=http://127.0.0.1:${port}`);
    const listed = await runCli(['state', '--blocked', '--data-dir', dataDir]);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stderr).toContain('0 failure state(s)');
  });
});
