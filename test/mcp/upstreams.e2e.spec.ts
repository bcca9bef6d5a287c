import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '@tokencircuit/testing';
import { FleetStack, TENANT_KEYS } from '../sdk/support/fleet-stack.js';
import { storedEvents } from './support/fleet-events.js';
import {
  callTool,
  connectHttpClient,
  EVERYTHING_BIN,
  freePort,
  gatewayConfig,
  resultText,
  Scratch,
  spawnHttpGateway,
  spawnStdioGateway,
  TICKET_TOOLS,
  type HttpGatewayProcess,
  type SpawnedGateway,
} from './support/gateway-harness.js';
import { SwitchableProxy } from './support/switchable-proxy.js';
import { startHttpUpstream, type HttpUpstream } from './support/test-upstream-server.js';
import { upstreamCallCount } from './support/upstream-calls.js';

/**
 * Upstreams we did not write, and upstreams over HTTP: the MCP reference server (`server-everything`) over
 * stdio and over Streamable HTTP, and the test upstream over Streamable HTTP with a secret header from the
 * environment, all behind one gateway, reached over both downstream transports.
 */
const UPSTREAM_TOKEN_ENV = 'TC_MCP_SPEC_UPSTREAM_TOKEN';
const UPSTREAM_TOKEN = 'upstream-secret-token-0123456789';

let stack: FleetStack;
let everythingHttp: ChildProcess;
let everythingUrl: string;
let ticketsHttp: HttpUpstream;
let ticketsCalls: string;
const scratch = new Scratch();

beforeAll(async () => {
  stack = await FleetStack.start();
  const port = await freePort();
  everythingHttp = spawn(EVERYTHING_BIN, ['streamableHttp'], {
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  everythingUrl = `http://127.0.0.1:${port}/mcp`;
  await waitFor(
    () =>
      fetch(everythingUrl, { method: 'GET' }).then(
        () => true,
        () => false,
      ),
    { maxWait: 30_000, name: 'server-everything to listen over Streamable HTTP' },
  );
  ticketsCalls = scratch.callsFile('tickets-http');
  ticketsHttp = await startHttpUpstream({ callsFile: ticketsCalls });
});
afterAll(async () => {
  everythingHttp?.kill('SIGTERM');
  await ticketsHttp?.close();
  await stack?.close();
  scratch.remove();
});

function config(agent: string): string {
  return scratch.write(
    `${agent}.json`,
    gatewayConfig({
      apiUrl: stack.apiUrl,
      agent,
      principal: `svc-${agent}`,
      servers: {
        everything: { command: EVERYTHING_BIN, args: ['stdio'], trustAnnotations: true },
        web: { url: everythingUrl, trustAnnotations: true },
        tickets: {
          url: ticketsHttp.url,
          headers: { authorization: { env: UPSTREAM_TOKEN_ENV } },
          tools: TICKET_TOOLS,
        },
      },
    }),
  );
}

describe.each(['stdio', 'http'] as const)(
  'third-party and HTTP upstreams behind the gateway (downstream %s)',
  (downstream) => {
    const agent = `upstreams-${downstream}`;
    let client: SpawnedGateway['client'];
    let stdio: SpawnedGateway | null = null;
    let http: HttpGatewayProcess | null = null;

    beforeAll(async () => {
      const file = config(agent);
      process.env[UPSTREAM_TOKEN_ENV] = `Bearer ${UPSTREAM_TOKEN}`;
      if (downstream === 'stdio') {
        stdio = await spawnStdioGateway(file, TENANT_KEYS.acme);
        client = stdio.client;
      } else {
        http = await spawnHttpGateway(file);
        client = await connectHttpClient(http.url, TENANT_KEYS.acme);
      }
    });
    afterAll(async () => {
      await client?.close();
      await http?.stop();
    });

    it('lists every upstream’s tools under its server name, annotations passed through', async () => {
      const { tools } = await client.listTools();
      const byName = new Map(tools.map((t) => [t.name, t]));
      for (const name of ['everything__echo', 'everything__get-sum', 'web__echo', 'tickets__read_report']) {
        expect(byName.has(name), `${name} in ${[...byName.keys()].join(', ')}`).toBe(true);
      }
      expect(byName.get('everything__echo')!.annotations).toMatchObject({ readOnlyHint: true, idempotentHint: true });
      expect(byName.get('everything__get-sum')!.inputSchema.required).toEqual(['a', 'b']);
    });

    it('calls server-everything over stdio and over HTTP, and governs each call (events in Postgres)', async () => {
      const echo = await callTool(client, 'everything__echo', { message: `hello ${downstream}` });
      expect(resultText(echo)).toBe(`Echo: hello ${downstream}`);
      const sum = await callTool(client, 'web__get-sum', { a: 2, b: 3 });
      expect(resultText(sum)).toContain('5');
      await waitFor(
        async () => {
          const events = await storedEvents(stack.database.pool, agent);
          return ['everything__echo', 'web__get-sum'].every((tool) =>
            events.some((e) => e.type === 'tool_call.outcome' && e.tool === tool && e.status === 'succeeded'),
          );
        },
        { maxWait: 30_000, name: 'both successful outcomes to be stored' },
      );
      // trustAnnotations: readOnlyHint → read.
      const requested = (await storedEvents(stack.database.pool, agent)).find(
        (e) => e.type === 'tool_call.requested' && e.tool === 'everything__echo',
      );
      expect((requested!.data as { call: { effect: string } }).call.effect).toBe('read');
    });

    it('structured content of a tool with an output schema passes through unchanged', async () => {
      const result = await callTool(client, 'everything__get-structured-content', { location: 'Chicago' });
      expect(result.isError ?? false).toBe(false);
      expect(result.structuredContent).toBeDefined();
    });

    it('the HTTP upstream gets the header the config names from the environment', async () => {
      const before = upstreamCallCount(ticketsCalls, 'read_report');
      const result = await callTool(client, 'tickets__read_report', { report: 'revenue', query: downstream });
      expect(result.isError ?? false, resultText(result)).toBe(false);
      expect(upstreamCallCount(ticketsCalls, 'read_report')).toBe(before + 1);
      expect(ticketsHttp.authorizations.at(-1)).toBe(`Bearer ${UPSTREAM_TOKEN}`);
    });
  },
);

describe('an HTTP upstream whose connection breaks', () => {
  let proxy: SwitchableProxy;
  let gateway: SpawnedGateway;

  beforeAll(async () => {
    // The same test upstream, reached through a proxy that can refuse connections and cut the open ones.
    proxy = await SwitchableProxy.start(ticketsHttp.url);
    const url = new URL(ticketsHttp.url);
    const file = scratch.write(
      'upstreams-broken.json',
      gatewayConfig({
        apiUrl: stack.apiUrl,
        agent: 'upstreams-broken',
        principal: 'svc-upstreams-broken',
        servers: {
          flaky: {
            url: `${proxy.url}${url.pathname}`,
            headers: { authorization: { env: UPSTREAM_TOKEN_ENV } },
            tools: TICKET_TOOLS,
          },
        },
      }),
    );
    process.env[UPSTREAM_TOKEN_ENV] = `Bearer ${UPSTREAM_TOKEN}`;
    gateway = await spawnStdioGateway(file, TENANT_KEYS.acme);
  });
  afterAll(async () => {
    await gateway?.close();
    await proxy?.close();
  });

  it('says the connection broke (not that the reply was unreadable), keeps serving, and calls again once it is back', async () => {
    const first = await callTool(gateway.client, 'flaky__read_report', { report: 'revenue', query: 'before' });
    expect(first.isError ?? false, resultText(first)).toBe(false);
    await proxy.down();
    const broken = await callTool(gateway.client, 'flaky__read_report', { report: 'revenue', query: 'down' });
    expect(broken.isError).toBe(true);
    expect(resultText(broken)).toMatch(
      /^flaky__read_report failed: the connection to flaky broke before an answer came \(E[A-Z]+\)/,
    );
    expect(resultText(broken)).not.toMatch(/not a tool result/);
    expect(broken.structuredContent).toMatchObject({
      tokencircuit: 'upstream_unreachable',
      tool: 'flaky__read_report',
    });
    await proxy.back();
    await waitFor(
      async () => {
        const again = await callTool(gateway.client, 'flaky__read_report', { report: 'revenue', query: 'after' });
        return again.isError !== true;
      },
      { maxWait: 30_000, name: 'a call through the gateway once the upstream is reachable again' },
    );
  });
});
