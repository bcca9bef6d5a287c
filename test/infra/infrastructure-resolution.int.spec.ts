import { mkdtempSync, readdirSync, rmSync, symlinkSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resolveDatabase } from '../support/database-resolution.js';
import { probeDockerEngine } from '../support/docker-engine.js';
import { KAFKA_IMAGE } from '../support/kafka-container.js';
import { resolveKafka } from '../support/kafka-resolution.js';

// The resolution the global setup runs, exercised with this process's environment changed; the
// spec runs in its own worker process, and every test restores what it changed.
const saved = { ...process.env };
const scratch: string[] = [];
beforeEach(() => {
  delete process.env.KAFKA_BROKERS;
  delete process.env.DATABASE_URL;
});
afterEach(() => {
  for (const name of Object.keys(process.env)) if (!(name in saved)) delete process.env[name];
  Object.assign(process.env, saved);
  for (const dir of scratch.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Port 1 on loopback: nothing listens there, and connecting fails at once. */
const DEAD = '127.0.0.1:1';

describe('test infrastructure resolution', () => {
  it('fails with a named timeout when KAFKA_BROKERS does not answer, instead of trying anything else', async () => {
    process.env.KAFKA_BROKERS = DEAD;

    await expect(resolveKafka('resolution-spec', { explicitWaitMs: 1_500 })).rejects.toThrow(
      `Timed out after 1500 ms waiting for Kafka at ${DEAD} (KAFKA_BROKERS) to answer a metadata request`,
    );
  });

  it('fails clearly when DATABASE_URL does not answer, without printing its password', async () => {
    process.env.DATABASE_URL = `postgres://postgres:s3cret@${DEAD}/tokencircuit`;

    const failure = await resolveDatabase().catch((error: Error) => error);

    expect(failure).toBeInstanceOf(Error);
    expect((failure as Error).message).toMatch(
      new RegExp(`^DATABASE_URL=postgres://postgres:\\*\\*\\*@${DEAD}/tokencircuit does not answer: .*ECONNREFUSED`),
    );
    expect((failure as Error).message).not.toContain('s3cret');
  });

  it('with neither KAFKA_BROKERS nor java, names the three ways out (or uses Docker where an engine answers)', async () => {
    const bin = mkdtempSync(join(tmpdir(), 'tc-nojava-'));
    scratch.push(bin);
    for (const dir of (process.env.PATH ?? '').split(delimiter).filter(Boolean)) {
      for (const name of existsSync(dir) ? readdirSync(dir) : []) {
        if (name !== 'java' && !existsSync(join(bin, name))) symlinkSync(join(dir, name), join(bin, name));
      }
    }
    process.env.PATH = bin;
    delete process.env.JAVA_HOME;

    const engine = await probeDockerEngine();
    if (engine.answers) {
      const kafka = await resolveKafka('resolution-spec');
      expect(kafka.source).toBe(`container ${KAFKA_IMAGE}`);
      await kafka.teardown!();
      return;
    }
    const failure = await resolveKafka('resolution-spec').catch((error: Error) => error);
    expect((failure as Error).message.split('\n')).toEqual([
      'No Kafka for the integration tests. Provide one of:',
      '  1. KAFKA_BROKERS=host:port[,host:port] of a running broker;',
      '  2. Java 17 + Maven, for the local launcher scripts/kafka/kafka.sh (tried: no java on PATH and JAVA_HOME unset);',
      `  3. a Docker engine, for an ${KAFKA_IMAGE} container (tried: ${engine.reason}).`,
    ]);
  });
});
