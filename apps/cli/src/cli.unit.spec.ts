import { readFileSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { runCli } from './cli.js';

/** Runs one invocation in-process with `stdin` as its input; returns the exit code and both outputs. */
async function run(argv: string[], stdin = '') {
  const input = new PassThrough();
  input.end(stdin);
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const chunks = { out: '', err: '' };
  stdout.on('data', (c: Buffer) => (chunks.out += c.toString()));
  stderr.on('data', (c: Buffer) => (chunks.err += c.toString()));
  const code = await runCli(argv, {
    stdin: input,
    stdout,
    stderr,
    env: {},
    cwd: process.cwd(),
    signal: new AbortController().signal,
  });
  return { code, ...chunks };
}

describe('runCli: exit codes and usage errors, the same for every command', () => {
  it('--help is a success and lists every command', async () => {
    const { code, out } = await run(['--help']);
    expect(code).toBe(0);
    for (const command of [
      'classify',
      'simulate',
      'demo',
      'tail',
      'state',
      'audit',
      'verify',
      'replay',
      'policy',
      'topics',
    ])
      expect(out).toContain(command);
  });

  it('--version prints the version of package.json and exits 0', async () => {
    const manifest = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as {
      version: string;
    };
    expect(await run(['--version'])).toEqual({ code: 0, out: `${manifest.version}\n`, err: '' });
  });

  it('an unknown command or option is a usage error: exit 2 with a hint', async () => {
    const unknown = await run(['clasify']);
    expect(unknown.code).toBe(2);
    expect(unknown.err).toMatch(/unknown command 'clasify'/);
    expect((await run(['simulate', '--frobnicate'])).code).toBe(2);
  });

  it('a bad option value is a usage error naming the option, before anything is contacted', async () => {
    const { code, err } = await run(['audit', '--class', 'auth', '--api-key', 'k'.repeat(20)]);
    expect(code).toBe(2);
    expect(err).toMatch(/--class: "auth" is not one of/);
  });

  it('an unreadable policy file is a usage error naming the file', async () => {
    const { code, err } = await run(['simulate', '--policy', 'no/such/policy.json'], '');
    expect(code).toBe(2);
    expect(err).toMatch(/--policy: cannot read .*no\/such\/policy.json/);
  });

  it('a policy the safety floor refuses is a usage error naming the field', async () => {
    const { code, err } = await run(['simulate', '--policy', 'apps/cli/src/spec-support/unsafe-policy.json'], '');
    expect(code).toBe(2);
    expect(err).toMatch(/classes\.permission\.budget: a budget above 0 for permission is refused by the safety floor/);
  });

  it('policy check prints the resolved policy and its version hash, or refuses the file naming the field', async () => {
    const { code, out } = await run(['policy', 'check', 'examples/policy.json', '--json']);
    expect(code).toBe(0);
    const [record] = out
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(record).toMatchObject({
      file: 'examples/policy.json',
      policyVersion: expect.stringMatching(/^sha256:[0-9a-f]{64}$/),
      policy: { classes: { transient: { budget: 3 }, permission: { budget: 0 } }, backoff: { baseMs: 500 } },
    });
    const human = await run(['policy', 'check', 'examples/policy.json']);
    expect(human.out).toContain(`version  ${record.policyVersion}`);
    const refused = await run(['policy', 'check', 'apps/cli/src/spec-support/unsafe-policy.json']);
    expect(refused.code).toBe(2);
    expect(refused.err).toMatch(/classes\.permission\.budget: a budget above 0 for permission is refused/);
  });

  it('classify goes on past bad lines and exits 2 at the end', async () => {
    const { code, out } = await run(['classify', '--json'], 'not json\n{"call":{},"status":"failed"}\n');
    expect(code).toBe(2);
    expect(
      out
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line)),
    ).toEqual([
      { line: 1, error: expect.stringMatching(/^not JSON/), field: '(line)' },
      { line: 2, error: expect.any(String), field: 'call.agent' },
    ]);
  });

  it('a missing input file is a usage error', async () => {
    const { code, err } = await run(['simulate', 'no-such-trace.jsonl']);
    expect(code).toBe(2);
    expect(err).toMatch(/cannot read no-such-trace.jsonl/);
  });

  it('an unreachable API is reported as such, with how to start one (exit 2)', async () => {
    const { code, err } = await run(['verify', '--url', 'http://127.0.0.1:9', '--api-key', 'k'.repeat(20)]);
    expect(code).toBe(2);
    expect(err).toMatch(/cannot reach the TokenCircuit API at http:\/\/127.0.0.1:9 .*npm start/);
  });
});
