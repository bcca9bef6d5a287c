import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { runCli } from '../cli.js';

const ENV = { TOKENCIRCUIT_API_KEY: 'acme-key-0123456789', TICKETS_TOKEN: 't', DOCS_MCP_AUTH: 'Bearer d' };

/** Runs one invocation in-process; returns the exit code and both outputs. */
async function run(argv: string[], env: Record<string, string> = ENV) {
  const stdin = new PassThrough();
  stdin.end();
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const chunks = { out: '', err: '' };
  stdout.on('data', (c: Buffer) => (chunks.out += c.toString()));
  stderr.on('data', (c: Buffer) => (chunks.err += c.toString()));
  const code = await runCli(argv, {
    stdin,
    stdout,
    stderr,
    env,
    cwd: process.cwd(),
    signal: new AbortController().signal,
  });
  return { code, ...chunks };
}

describe('tokencircuit mcp check FILE and the mcp command’s usage errors', () => {
  it('a valid config: exit 0, its agent and servers listed', async () => {
    const { code, out, err } = await run(['mcp', 'check', 'examples/mcp-gateway.json']);
    expect({ code, err }).toEqual({ code: 0, err: '' });
    expect(out).toBe(
      [
        'mcp config examples/mcp-gateway.json is valid',
        'agent support-bot of tenant acme, principal svc-support',
        '  tickets (stdio: node tickets-server.js); declared: create_ticket, get_ticket',
        '  docs (http: https://docs.example.com/mcp), annotations trusted',
        '',
      ].join('\n'),
    );
    const json = await run(['mcp', 'check', 'examples/mcp-gateway.json', '--json']);
    expect(JSON.parse(json.out)).toMatchObject({ tenant: 'acme', servers: [{ name: 'tickets' }, { name: 'docs' }] });
  });

  it('an invalid config: exit 1 naming every problem (unset secrets by variable)', async () => {
    const { code, out, err } = await run(['mcp', 'check', 'examples/mcp-gateway.json'], {});
    expect(code).toBe(1);
    expect(out).toBe('');
    expect(err).toContain('tokencircuit: examples/mcp-gateway.json: invalid MCP gateway config:');
    expect(err).toContain('servers.tickets.env.TICKETS_TOKEN: environment variable TICKETS_TOKEN is not set');
    expect(err).toContain('backend.apiKey: environment variable TOKENCIRCUIT_API_KEY is not set');
    const missing = await run(['mcp', 'check', 'no/such/file.json']);
    expect(missing.code).toBe(1);
    expect(missing.err).toMatch(/no\/such\/file\.json: cannot be read \(ENOENT\)/);
  });

  it('mcp without --config, or with a bad --http, is a usage error before anything starts', async () => {
    expect(await run(['mcp'])).toMatchObject({ code: 2, err: expect.stringMatching(/--config FILE is required/) });
    const badHttp = await run(['mcp', '--config', 'examples/mcp-gateway.json', '--http', 'nowhere']);
    expect(badHttp).toMatchObject({ code: 2, err: expect.stringMatching(/--http: "nowhere" must be HOST:PORT/) });
  });
});
