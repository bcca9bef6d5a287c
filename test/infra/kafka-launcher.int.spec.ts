import { mkdtempSync, readdirSync, rmSync, symlinkSync, existsSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Kafka, logLevel } from 'kafkajs';
import { lastLine, runLauncher } from '../support/local-kafka-launcher.js';

// These specs run their own brokers on free ports with their own state dirs, so the shared broker of
// the other int tests (default port, default state dir) is never touched. Only the jar cache is shared.

const scratch: string[] = [];
function scratchDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), `tc-launcher-${prefix}-`));
  scratch.push(dir);
  return dir;
}

/** A directory of symlinks to every program on PATH except `omit`: "this machine, minus java". */
function pathWithout(...omit: string[]): string {
  const bin = scratchDir('bin');
  for (const dir of (process.env.PATH ?? '').split(delimiter).filter(Boolean)) {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      continue;
    }
    for (const name of names) {
      if (omit.includes(name) || existsSync(join(bin, name))) continue;
      symlinkSync(join(dir, name), join(bin, name));
    }
  }
  return bin;
}

function listen(port: number): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen({ port, host: '127.0.0.1', exclusive: true }, () => resolve(server));
  });
}
const close = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()));

/** A broker port P such that P and P+1 (the controller) are both free right now. */
async function freePortPair(): Promise<number> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const probe = await listen(0);
    const port = (probe.address() as { port: number }).port;
    await close(probe);
    if (port > 65_000) continue;
    try {
      await close(await listen(port + 1));
      return port;
    } catch {
      // port+1 is in use: try another pair
    }
  }
  throw new Error('found no free pair of adjacent ports in 20 attempts');
}

function launcherEnv(port: number, overrides: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    TC_KAFKA_PORT: String(port),
    TC_KAFKA_STATE_DIR: scratchDir(`state-${port}`),
    TC_KAFKA_STOP_TIMEOUT: '20',
    ...overrides,
  };
}

afterAll(() => {
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

describe('scripts/kafka/kafka.sh refuses clearly', () => {
  it('without java on PATH (exit 4), naming what to install', async () => {
    const env = launcherEnv(await freePortPair(), { PATH: pathWithout('java'), JAVA_HOME: '' });

    const run = await runLauncher(['start'], env);

    expect(run.code).toBe(4);
    expect(run.stderr).toContain("no 'java' on PATH");
    expect(run.stderr).toContain('KAFKA_BROKERS');
    expect(run.stdout).toBe('');
  });

  it('without mvn on PATH when the jars are not cached yet (exit 4)', async () => {
    const env = launcherEnv(await freePortPair(), {
      PATH: pathWithout('mvn'),
      TC_KAFKA_HOME: scratchDir('empty-cache'),
    });

    const run = await runLauncher(['start'], env);

    expect(run.code).toBe(4);
    expect(run.stderr).toContain("no 'mvn' on PATH");
  });

  it.each([
    ['broker', 0],
    ['controller', 1],
  ])('when the %s port is taken by another process (exit 5), naming the port', async (_, offset) => {
    const port = await freePortPair();
    const squatter = await listen(port + offset);
    try {
      const run = await runLauncher(['start'], launcherEnv(port));

      expect(run.code).toBe(5);
      expect(run.stderr).toContain(`port ${port + offset} on 127.0.0.1 is not free`);
      expect(run.stderr).toContain('TC_KAFKA_PORT');
    } finally {
      await close(squatter);
    }
  });

  it('a TC_KAFKA_PORT that is not a port (exit 2), and an unknown command (exit 2)', async () => {
    const badPort = await runLauncher(['start'], { ...process.env, TC_KAFKA_PORT: 'kafka' });
    const unknown = await runLauncher(['restart'], process.env);

    expect(badPort.code).toBe(2);
    expect(badPort.stderr).toContain(
      "TC_KAFKA_PORT must be a number from 1024 to 65534 (the controller uses port+1), got 'kafka'",
    );
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('usage: scripts/kafka/kafka.sh');
  });
});

describe('scripts/kafka/kafka.sh is idempotent', () => {
  let env: NodeJS.ProcessEnv;
  let port: number;
  beforeAll(async () => {
    port = await freePortPair();
    env = launcherEnv(port);
  });
  afterEach(async () => {
    await runLauncher(['stop'], env);
  });

  it('start prints the bootstrap address last; a second start is a no-op on the same broker', async () => {
    const first = await runLauncher(['start'], env);
    expect(first.code, first.stderr).toBe(0);
    expect(lastLine(first.stdout)).toBe(`127.0.0.1:${port}`);
    expect(first.stdout).toContain(`log: ${env.TC_KAFKA_STATE_DIR}/kafka.log`);
    const pidBefore = (await runLauncher(['status'], env)).stdout;

    const second = await runLauncher(['start'], env);

    expect(second.code).toBe(0);
    expect(lastLine(second.stdout)).toBe(`127.0.0.1:${port}`);
    expect(second.stderr).toContain('already running');
    expect((await runLauncher(['status'], env)).stdout).toBe(pidBefore);
    expect(pidBefore).toMatch(new RegExp(`^running pid=\\d+ address=127\\.0\\.0\\.1:${port} `));
  });

  it('stop stops a running broker; stop when stopped is a no-op; status then exits 3', async () => {
    expect((await runLauncher(['start'], env)).code).toBe(0);

    const stop = await runLauncher(['stop'], env);
    const again = await runLauncher(['stop'], env);
    const status = await runLauncher(['status'], env);

    expect(stop.code).toBe(0);
    expect(stop.stdout).toMatch(new RegExp(`^stopped Kafka on 127\\.0\\.0\\.1:${port} \\(pid \\d+\\)`));
    expect(again.code).toBe(0);
    expect(again.stdout).toContain(`not running on 127.0.0.1:${port}`);
    expect(status.code).toBe(3);
    expect(status.stdout.trim()).toBe('stopped');
  });

  it('a broker started under a lease stops with its last lease; one started by hand outlives test runs', async () => {
    const leaseEnv = { ...env, TC_KAFKA_LEASE_PID: String(process.pid) };
    expect((await runLauncher(['start', '--lease', 'run-a'], leaseEnv)).code).toBe(0);
    expect((await runLauncher(['start', '--lease', 'run-b'], leaseEnv)).code).toBe(0);

    const firstRelease = await runLauncher(['release', 'run-a'], leaseEnv);
    expect(firstRelease.stdout).toContain('1 other lease(s) still hold it');
    expect((await runLauncher(['status'], env)).code).toBe(0);

    const lastRelease = await runLauncher(['release', 'run-b'], leaseEnv);
    expect(lastRelease.stdout).toContain('its last lease was released');
    expect((await runLauncher(['status'], env)).code).toBe(3);

    expect((await runLauncher(['start'], env)).code).toBe(0);
    expect((await runLauncher(['start', '--lease', 'run-c'], leaseEnv)).code).toBe(0);
    const manualRelease = await runLauncher(['release', 'run-c'], leaseEnv);
    expect(manualRelease.stdout).toContain('it was started by hand');
    expect((await runLauncher(['status'], env)).code).toBe(0);
  });
});

describe('scripts/kafka/kafka.sh keeps its data', () => {
  let env: NodeJS.ProcessEnv;
  let port: number;
  beforeAll(async () => {
    port = await freePortPair();
    env = launcherEnv(port);
  });
  afterAll(async () => {
    await runLauncher(['stop'], env);
  });

  const kafka = () =>
    new Kafka({ clientId: 'launcher-spec', brokers: [`127.0.0.1:${port}`], logLevel: logLevel.NOTHING });
  async function highWatermark(topic: string): Promise<string | null> {
    const admin = kafka().admin();
    await admin.connect();
    try {
      if (!(await admin.listTopics()).includes(topic)) return null;
      return (await admin.fetchTopicOffsets(topic))[0]!.high;
    } finally {
      await admin.disconnect();
    }
  }

  // Before: every start formatted a new cluster, so a stop/start lost every topic, and a projector's
  // checkpoints then pointed past the end of logs that had restarted at 0.
  it('topics and records survive stop/start; only start --fresh begins empty, and never under a running broker', async () => {
    expect((await runLauncher(['start'], env)).code).toBe(0);
    const admin = kafka().admin();
    await admin.connect();
    await admin.createTopics({ waitForLeaders: true, topics: [{ topic: 'kept', numPartitions: 1 }] });
    await admin.disconnect();
    const producer = kafka().producer();
    await producer.connect();
    await producer.send({ topic: 'kept', acks: -1, messages: [{ value: 'one' }, { value: 'two' }] });
    await producer.disconnect();

    expect((await runLauncher(['stop'], env)).code).toBe(0);
    const restarted = await runLauncher(['start'], env);
    expect(restarted.code, restarted.stderr).toBe(0);
    expect(restarted.stderr).toContain('reusing the data of the last run');
    expect(await highWatermark('kept')).toBe('2');

    const refused = await runLauncher(['start', '--fresh'], env);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('stop it first');
    expect(await highWatermark('kept')).toBe('2');

    expect((await runLauncher(['stop'], env)).code).toBe(0);
    const fresh = await runLauncher(['start', '--fresh'], env);
    expect(fresh.code, fresh.stderr).toBe(0);
    expect(lastLine(fresh.stdout)).toBe(`127.0.0.1:${port}`);
    expect(await highWatermark('kept')).toBeNull();
  }, 600_000);
});
