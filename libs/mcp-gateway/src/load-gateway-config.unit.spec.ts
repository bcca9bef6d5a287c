import { describe, expect, it } from 'vitest';
import { GatewayConfigError, loadGatewayConfig } from './load-gateway-config.js';

const valid = {
  tenant: 'acme',
  agent: 'support-bot',
  principal: 'svc-support',
  backend: { url: 'http://127.0.0.1:8080/', apiKey: { env: 'TC_KEY' } },
  servers: {
    tickets: {
      command: 'node',
      args: ['tickets.js'],
      env: { TICKETS_TOKEN: { env: 'TICKETS_TOKEN' } },
      tools: {
        create_ticket: {
          effect: 'write',
          resourceId: 'project',
          reconcile: { tool: 'get_ticket', arguments: { id: 'id' }, exists: '$.id' },
        },
      },
    },
    search: {
      url: 'https://search.example/mcp',
      headers: { authorization: { env: 'SEARCH_AUTH' } },
      trustAnnotations: true,
    },
  },
};
const env = { TC_KEY: 'k'.repeat(20), TICKETS_TOKEN: 't0k', SEARCH_AUTH: 'Bearer s' };

const problemsOf = (json: unknown, environment: Record<string, string | undefined> = env): readonly string[] => {
  try {
    loadGatewayConfig(json, environment);
  } catch (error) {
    expect(error).toBeInstanceOf(GatewayConfigError);
    return (error as GatewayConfigError).problems;
  }
  throw new Error('expected the config to be refused');
};

describe('the MCP gateway config', () => {
  it('reads a valid file: secrets from the environment, defaults applied, the URL without its trailing slash', () => {
    const config = loadGatewayConfig(valid, env);
    expect(config).toMatchObject({
      tenant: 'acme',
      agent: 'support-bot',
      principal: 'svc-support',
      authScope: null,
      backend: { url: 'http://127.0.0.1:8080', apiKey: env.TC_KEY },
      failMode: null,
      interventionWaitMs: 1_500,
      eventQueueLimit: 10_000,
      eventLingerMs: 50,
    });
    const [tickets, search] = config.servers;
    expect(tickets).toMatchObject({
      name: 'tickets',
      transport: 'stdio',
      command: 'node',
      args: ['tickets.js'],
      env: { TICKETS_TOKEN: 't0k' },
      trustAnnotations: false,
      timeoutMs: 60_000,
    });
    expect(search).toMatchObject({ transport: 'http', headers: { authorization: 'Bearer s' }, trustAnnotations: true });
  });

  it('names every problem at once, each with where it is, and never echoes a secret', () => {
    const problems = problemsOf(
      {
        tenant: '',
        principal: 'p',
        backend: { apiKey: { env: 'MISSING_KEY' } },
        extra: 1,
        eventLingerMs: 1_001,
        servers: {
          a__b: { command: 'x' },
          both: { command: 'x', url: 'http://h' },
          neither: { args: [] },
          bad: { url: 'ftp://h', tools: { t: { effect: 'maybe', reconcile: { tool: 'r', exists: 'id' } } } },
          reads: { command: 'x', tools: { get: { effect: 'read', reconcile: { tool: 'get2' } } } },
        },
      },
      { ...env, TC_KEY: undefined },
    );
    const text = problems.join('\n');
    expect(text).toContain('tenant: ');
    expect(text).toMatch(/agent: /);
    expect(text).toMatch(/\(file\): .*extra/);
    expect(text).toMatch(/eventLingerMs: .*1000/);
    expect(text).toContain('servers.a__b: server name must not contain "__"');
    expect(text).toContain(
      'servers.both: give "command" (and "args") for a stdio upstream or "url" for Streamable HTTP, not both',
    );
    expect(text).toContain('servers.neither: give "command"');
    expect(text).toContain('servers.bad.url: must be an http:// or https:// URL');
    expect(text).toMatch(/servers\.bad\.tools\.t\.effect: /);
    expect(text).toContain('servers.bad.tools.t.reconcile.exists: a path like $.id');
    expect(text).toContain('servers.reads.tools.get.reconcile: a read changes nothing');
    expect(problems.length).toBeGreaterThanOrEqual(10);
  });

  it('names a secret variable that is not set, by variable, not by value', () => {
    const problems = problemsOf(valid, { TC_KEY: 'x', TICKETS_TOKEN: '' });
    expect(problems).toEqual([
      'servers.tickets.env.TICKETS_TOKEN: environment variable TICKETS_TOKEN is not set',
      'servers.search.headers.authorization: environment variable SEARCH_AUTH is not set',
    ]);
  });

  it('refuses a file without servers, and one that is not an object', () => {
    expect(problemsOf({ tenant: 't', agent: 'a', principal: 'p', servers: {} })).toEqual([
      'servers: name at least one upstream server',
    ]);
    expect(problemsOf('nope')[0]).toMatch(/^\(file\): /);
  });
});
