import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cloudEventToAgentEvent, fromKafkaRecord } from '@tokencircuit/contracts';
import { DEFAULT_CONFIG, type FailureState } from '@tokencircuit/governance';
import { consumeUntil } from '@tokencircuit/testing';
import { runCli } from '../../apps/cli/src/cli.js';
import { permissionDenied, toolCall } from '@tokencircuit/contracts/testing';
import { ApiHarness, KEYS } from '../api/support/api-harness.js';
import { seedFromEvents } from '../api/support/seed.js';

/** One CLI invocation in-process, against the harness's API as tenant acme (TOKENCIRCUIT_URL / _API_KEY). */
async function cli(api: ApiHarness, argv: string[]) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const chunks = { out: '', err: '' };
  stdout.on('data', (c: Buffer) => (chunks.out += c.toString()));
  stderr.on('data', (c: Buffer) => (chunks.err += c.toString()));
  const stdin = new PassThrough();
  stdin.end();
  const code = await runCli(argv, {
    stdin,
    stdout,
    stderr,
    env: { TOKENCIRCUIT_URL: api.baseUrl, TOKENCIRCUIT_API_KEY: KEYS.acme },
    cwd: process.cwd(),
    signal: new AbortController().signal,
  });
  return { code, ...chunks };
}

describe('npx tokencircuit ack|resolve KEY (real API, Kafka and Postgres)', () => {
  let api: ApiHarness;
  let acmeBlock: FailureState;
  let globexBlock: FailureState;

  beforeAll(async () => {
    api = await ApiHarness.start();
    const call = toolCall({ principal: 'svc-reporting' });
    acmeBlock = (await seedFromEvents(api.database.pool, [permissionDenied('acme', call)], DEFAULT_CONFIG)).states[0]!;
    globexBlock = (await seedFromEvents(api.database.pool, [permissionDenied('globex', call)], DEFAULT_CONFIG))
      .states[0]!;
  });
  afterAll(async () => {
    await api?.close();
  });

  async function published(id: string) {
    const received = await consumeUntil(api.topic, (messages) =>
      messages.some((m) => m.headers['ce_id']?.toString() === id),
    );
    return cloudEventToAgentEvent(fromKafkaRecord(received.find((m) => m.headers['ce_id']?.toString() === id)!));
  }

  it('ack publishes an operator acknowledgement of the key, by the operator named', async () => {
    const run = await cli(api, ['ack', acmeBlock.keyId, '--by', 'alice@acme', '--reason', 'looking', '--json']);
    expect(run.err).not.toMatch(/tokencircuit:/);
    expect(run.code).toBe(0);
    const [record] = run.out
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { id: string });
    const event = await published(record!.id);
    expect(event).toMatchObject({
      type: 'operator.resolution',
      tenant: 'acme',
      data: { keyId: acmeBlock.keyId, resolution: 'acknowledged', by: 'alice@acme', reason: 'looking' },
    });
  });

  it('resolve publishes a reset by default, or the kind given with --as', async () => {
    const plain = await cli(api, ['resolve', acmeBlock.keyId, '--by', 'alice@acme']);
    expect(plain.code).toBe(0);
    expect(plain.out).toMatch(/resolved \(reset\) .* by alice@acme · event ([0-9a-f-]{36})/);
    const id = /event ([0-9a-f-]{36})/.exec(plain.out)![1]!;
    expect((await published(id)).data).toMatchObject({ resolution: 'reset', reason: expect.any(String) });

    const granted = await cli(api, ['resolve', acmeBlock.keyId, '--as', 'auth_granted', '--by', 'a', '--json']);
    expect(granted.code).toBe(0);
    const [record] = granted.out
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { id: string });
    expect((await published(record!.id)).data).toMatchObject({ resolution: 'auth_granted', by: 'a' });
  });

  it("another tenant's key, or no such key, is exit 1 naming the 404; a bad --as is exit 2 before any request", async () => {
    const foreign = await cli(api, ['ack', globexBlock.keyId, '--by', 'mallory']);
    expect(foreign.code).toBe(1);
    expect(foreign.err).toMatch(/POST \/v1\/resolutions → 404 not_found/);
    expect((await cli(api, ['resolve', 'no-such-key', '--by', 'a'])).code).toBe(1);
    const bad = await cli(api, ['resolve', acmeBlock.keyId, '--as', 'forgive', '--by', 'a']);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/--as: "forgive" is not one of/);
  });
});
