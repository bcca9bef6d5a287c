import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FleetStack, TENANT_KEYS } from '../test/sdk/support/fleet-stack.js';

/** The ```bash blocks of examples/curl.md, in order: the document is the script. */
const script = [...readFileSync(new URL('./curl.md', import.meta.url), 'utf8').matchAll(/```bash\n([\s\S]*?)```/g)]
  .map((m) => m[1])
  .join('\n');

describe('examples/curl.md runs as written against the real API', () => {
  let stack: FleetStack;
  beforeAll(async () => {
    stack = await FleetStack.start();
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('ingest, intervention in the audit trail, preflight denial with the artifact, verifier', async () => {
    // Asynchronously: the API answering curl lives in this process, so its event loop must keep running.
    const run = await promisify(execFile)('bash', ['--norc', '--noprofile', '-c', script], {
      env: {
        PATH: process.env.PATH,
        TOKENCIRCUIT_URL: stack.apiUrl,
        TOKENCIRCUIT_API_KEY: TENANT_KEYS.acme,
        TENANT: 'acme',
      },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(run.stderr, run.stdout).toBe('');
    const answers = run.stdout
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>);

    const [firstPreflight, requested, outcome] = answers;
    expect(firstPreflight).toMatchObject({ allow: true, artifact: null });
    expect(requested).toMatchObject({ accepted: [expect.any(String)] });
    expect(outcome).toMatchObject({ accepted: [expect.any(String)] });
    const intervention = answers.find((a) => 'artifact' in a && 'hash' in a);
    expect(intervention).toMatchObject({
      level: 'block',
      nextAction: 'stop_request_authorization',
      artifact: { failure_class: 'permission' },
    });
    const denial = answers.filter((a) => 'allow' in a)[1];
    expect(denial).toMatchObject({
      allow: false,
      decision: { nextAction: 'stop_request_authorization' },
      artifact: { failure_class: 'permission', principal: 'svc-reporting' },
    });
    expect(answers[answers.length - 1]).toMatchObject({ accepted: [expect.any(String)] });
  });
});
