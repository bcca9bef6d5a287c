import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  CallToolRequestSchema,
  ListToolsRequestSchema,
  ToolListChangedNotificationSchema,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '@tokencircuit/testing';
import { loadGatewayConfig } from '@tokencircuit/mcp-gateway';
import { startMcpGateway, type McpGateway } from '../../apps/mcp-gateway/src/index.js';
import { FleetStack, TENANT_KEYS } from '../sdk/support/fleet-stack.js';

/**
 * The MCP gateway's own proof (issue 29): a real MCP SDK Client talks to `tokencircuit mcp` over stdio (the
 * CLI as a child process, the way Claude Desktop launches it) and to the gateway over Streamable HTTP with a
 * Bearer key; the upstream is a real MCP server (support/core-fixture-server.ts) that logs every call it
 * receives; the backend is the whole fleet on real Kafka and Postgres.
 */
const REPO = fileURLToPath(new URL('../../', import.meta.url));
const TSX_LOADER = pathToFileURL(join(REPO, 'node_modules/tsx/dist/loader.mjs')).href;
const FIXTURE = fileURLToPath(new URL('./support/core-fixture-server.ts', import.meta.url));
const KEY_ENV = 'TC_GATEWAY_CORE_KEY';

interface Logged {
  readonly tool: string;
  readonly args: Record<string, string>;
}

describe('the MCP gateway over stdio and Streamable HTTP', () => {
  let stack: FleetStack;
  let dir: string;
  const closers: Array<() => Promise<void>> = [];

  beforeAll(async () => {
    stack = await FleetStack.start();
    dir = mkdtempSync(join(tmpdir(), 'tc-mcp-core-'));
  });
  afterAll(async () => {
    for (const close of closers.reverse()) await close().catch(() => undefined);
    await stack?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** A config whose `core` server is the fixture, logging to a fresh file; returns both paths. */
  const setup = (agent: string, extra: Record<string, unknown> = {}) => {
    const calls = join(dir, `${agent}-calls.jsonl`);
    const config = {
      tenant: 'acme',
      agent,
      principal: 'svc-reports',
      backend: { url: stack.apiUrl, apiKey: { env: KEY_ENV } },
      // Generous: on a loaded machine the intervention (Kafka → projector → decision → audit poll) takes seconds.
      interventionWaitMs: 30_000,
      servers: {
        core: {
          command: process.execPath,
          args: ['--import', TSX_LOADER, FIXTURE],
          env: { CORE_FIXTURE_CALLS: calls },
          trustAnnotations: true,
          timeoutMs: 1_000,
          tools: {
            read_report: { resourceClass: 'api_endpoint', resourceId: 'report' },
            create_note: {
              effect: 'write',
              resourceId: 'id',
              reconcile: { tool: 'get_note', arguments: { id: 'id' }, exists: '$.id' },
            },
          },
        },
      },
      ...extra,
    };
    const file = join(dir, `${agent}.json`);
    writeFileSync(file, JSON.stringify(config, null, 2));
    return { file, calls, config };
  };
  const logged = (calls: string): Logged[] =>
    existsSync(calls)
      ? readFileSync(calls, 'utf8')
          .split('\n')
          .filter((line) => line !== '')
          .map((line) => JSON.parse(line) as Logged)
      : [];
  const textOf = (result: CallToolResult): string =>
    result.content.map((block) => (block.type === 'text' ? block.text : '')).join('\n');

  const stdioClient = async (file: string): Promise<Client> => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [join(REPO, 'bin/tokencircuit.mjs'), 'mcp', '--config', file],
      env: { ...(process.env as Record<string, string>), [KEY_ENV]: TENANT_KEYS.acme },
      stderr: 'pipe',
    });
    const client = new Client({ name: 'spec-agent', version: '1.0.0' });
    await client.connect(transport);
    closers.push(() => client.close());
    return client;
  };

  const httpGateway = async (agent: string): Promise<{ gateway: McpGateway; calls: string }> => {
    const { config, calls } = setup(agent);
    const gateway = await startMcpGateway(loadGatewayConfig(config, { [KEY_ENV]: TENANT_KEYS.acme }), {
      downstream: { http: { host: '127.0.0.1', port: 0 } },
      log: () => undefined,
    });
    closers.push(() => gateway.close());
    return { gateway, calls };
  };

  const httpClient = async (url: string, key: string): Promise<Client> => {
    const client = new Client({ name: 'spec-agent-http', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${key}` } } }),
    );
    closers.push(() => client.close());
    return client;
  };

  it('stdio: lists SERVER__TOOL with schemas and annotations; a stop comes back as an isError result; the next call is never forwarded', async () => {
    const { file, calls } = setup('stdio-agent');
    const client = await stdioClient(file);

    const { tools } = await client.listTools();
    const readReport = tools.find((tool) => tool.name === 'core__read_report');
    expect(readReport).toMatchObject({
      inputSchema: { type: 'object', properties: { report: { type: 'string' } } },
      annotations: { readOnlyHint: true },
    });
    expect(tools.map((tool) => tool.name).sort()).toEqual([
      'core__crash_note',
      'core__create_note',
      'core__echo',
      'core__enable_late_tool',
      'core__get_note',
      'core__read_report',
    ]);

    // The upstream refuses (403): the outcome is classified permission and its block intervention replaces the result.
    const first = (await client.callTool({ name: 'core__read_report', arguments: { report: 'q3' } })) as CallToolResult;
    expect(first.isError).toBe(true);
    expect(textOf(first)).toMatch(/^TokenCircuit stopped core__read_report: svc-reports is not authorized for q3/);
    expect(first.structuredContent).toMatchObject({
      tokencircuit: 'stopped',
      source: 'intervention',
      nextAllowedAction: 'stop_request_authorization',
      level: 'block',
      artifact: { failureClass: 'permission' },
    });
    expect(logged(calls)).toHaveLength(1);

    // Asked again, even with another wording: preflight refuses and nothing reaches the upstream.
    const again = (await client.callTool({ name: 'core__read_report', arguments: { report: 'q3' } })) as CallToolResult;
    expect(again.isError).toBe(true);
    expect(again.structuredContent).toMatchObject({
      source: 'preflight',
      nextAllowedAction: 'stop_request_authorization',
    });
    expect(textOf(again)).toMatch(/^TokenCircuit stopped core__read_report: .*Do not retry or rephrase this call/);
    expect(logged(calls)).toEqual([{ tool: 'read_report', args: { report: 'q3' } }]);

    // Both events of the forwarded call reached the backend with protocol "mcp" and the SERVER__TOOL name.
    const outcome = await waitFor(
      async () => {
        const { rows } = await stack.database.pool.query<{ data: Record<string, unknown> }>(
          `SELECT tokencircuit_cloud_event(agent_events)->'data' AS data FROM agent_events WHERE agent = 'stdio-agent' AND type = 'tool_call.outcome'`,
        );
        return rows[0]?.data;
      },
      { name: 'the outcome of the forwarded call applied' },
    );
    expect(outcome).toMatchObject({
      status: 'failed',
      protocol: 'mcp',
      dispatch: { requestSent: true, responseReceived: true },
      call: { tool: 'core__read_report', effect: 'read', resourceId: 'q3', principal: 'svc-reports' },
    });
  });

  it('stdio: a write that times out after it left is unknown, and the gateway reconciles it with the read instead of the model resending it', async () => {
    const { file, calls } = setup('reconcile-agent');
    const client = await stdioClient(file);

    const result = (await client.callTool({
      name: 'core__create_note',
      arguments: { id: 'n-1', text: 'hello' },
    })) as CallToolResult;
    expect(textOf(result)).toMatch(
      /^The outcome of core__create_note was unknown, so TokenCircuit checked with get_note: it took effect\. Do not send it again/,
    );
    expect(result.isError).toBe(false);
    expect(result.structuredContent).toMatchObject({ tokencircuit: 'reconciled', finding: 'confirmed' });
    expect(logged(calls).map((call) => call.tool)).toEqual(['create_note', 'get_note']);

    const verifier = await waitFor(
      async () => {
        const { rows } = await stack.database.pool.query<{ data: Record<string, unknown> }>(
          `SELECT tokencircuit_cloud_event(agent_events)->'data' AS data FROM agent_events WHERE agent = 'reconcile-agent' AND type = 'verifier.result'`,
        );
        return rows[0]?.data;
      },
      { name: 'the verifier.result of the reconcile applied' },
    );
    expect(verifier).toMatchObject({ tool: 'core__create_note', verifier: 'read_after_write', finding: 'confirmed' });
    const { rows } = await stack.database.pool.query<{ data: { status: string } }>(
      `SELECT tokencircuit_cloud_event(agent_events)->'data' AS data FROM agent_events WHERE agent = 'reconcile-agent' AND type = 'tool_call.outcome'`,
    );
    expect(rows.map((row) => row.data.status)).toEqual(['unknown']);
  });

  it("stdio: an upstream's tools/list_changed reaches the agent, and the new tool is listed and callable", async () => {
    const { file } = setup('list-changed-agent');
    const client = await stdioClient(file);
    let changed = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
      changed++;
    });
    expect((await client.listTools()).tools.map((tool) => tool.name)).not.toContain('core__late_tool');
    await client.callTool({ name: 'core__enable_late_tool', arguments: {} });
    await waitFor(() => changed > 0, { name: 'notifications/tools/list_changed forwarded' });
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('core__late_tool');
    const late = (await client.callTool({ name: 'core__late_tool', arguments: {} })) as CallToolResult;
    expect(textOf(late)).toBe('late');
  });

  it('a Streamable HTTP upstream gets the configured headers, the secret read from the environment', async () => {
    // The upstream: stateless Streamable HTTP that answers only with the right Authorization header.
    const seen: Array<string | undefined> = [];
    const upstream = createServer(async (req, res) => {
      seen.push(req.headers.authorization);
      if (req.headers.authorization !== 'Bearer upstream-secret') return void res.writeHead(401).end();
      const server = new Server({ name: 'http-upstream', version: '1.0.0' }, { capabilities: { tools: {} } });
      server.setRequestHandler(ListToolsRequestSchema, async () => ({
        tools: [{ name: 'whoami', inputSchema: { type: 'object' as const }, annotations: { readOnlyHint: true } }],
      }));
      server.setRequestHandler(CallToolRequestSchema, async () => ({
        content: [{ type: 'text', text: 'the gateway' }],
      }));
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      res.on('close', () => void server.close());
      await server.connect(transport);
      await transport.handleRequest(req, res);
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    closers.push(() => new Promise((resolve) => upstream.close(() => resolve())));
    const { port } = upstream.address() as AddressInfo;

    const config = loadGatewayConfig(
      {
        tenant: 'acme',
        agent: 'http-upstream-agent',
        principal: 'svc-reports',
        backend: { url: stack.apiUrl, apiKey: { env: KEY_ENV } },
        servers: {
          remote: {
            url: `http://127.0.0.1:${port}/mcp`,
            headers: { authorization: { env: 'REMOTE_MCP_AUTH' } },
            trustAnnotations: true,
          },
        },
      },
      { [KEY_ENV]: TENANT_KEYS.acme, REMOTE_MCP_AUTH: 'Bearer upstream-secret' },
    );
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const gateway = await startMcpGateway(config, { downstream: { transport: serverSide }, log: () => undefined });
    closers.push(() => gateway.close());
    const client = new Client({ name: 'spec-agent-memory', version: '1.0.0' });
    await client.connect(clientSide);
    closers.push(() => client.close());

    expect((await client.listTools()).tools).toMatchObject([
      { name: 'remote__whoami', annotations: { readOnlyHint: true } },
    ]);
    const result = (await client.callTool({ name: 'remote__whoami', arguments: {} })) as CallToolResult;
    expect(textOf(result)).toBe('the gateway');
    expect(seen.length).toBeGreaterThan(0);
    expect(new Set(seen)).toEqual(new Set(['Bearer upstream-secret']));
    const outcome = await waitFor(
      async () => {
        const { rows } = await stack.database.pool.query<{ data: Record<string, unknown> }>(
          `SELECT tokencircuit_cloud_event(agent_events)->'data' AS data FROM agent_events WHERE agent = 'http-upstream-agent' AND type = 'tool_call.outcome'`,
        );
        return rows[0]?.data;
      },
      { name: 'the outcome of the HTTP upstream call applied' },
    );
    expect(outcome).toMatchObject({ status: 'succeeded', call: { tool: 'remote__whoami', effect: 'read' } });
  });

  it('Streamable HTTP: a Bearer key is served under its tenant; a missing or wrong key gets 401', async () => {
    const { gateway, calls } = await httpGateway('http-agent');
    expect(gateway.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);

    const client = await httpClient(gateway.url!, TENANT_KEYS.acme);
    const echoed = (await client.callTool({ name: 'core__echo', arguments: { text: 'hi' } })) as CallToolResult;
    expect(echoed.isError ?? false).toBe(false);
    expect(JSON.parse(textOf(echoed))).toEqual({ echoed: 'hi' });
    expect(logged(calls)).toEqual([{ tool: 'echo', args: { text: 'hi' } }]);
    const outcome = await waitFor(
      async () => {
        const { rows } = await stack.database.pool.query<{ tenant: string; data: Record<string, unknown> }>(
          `SELECT tenant, tokencircuit_cloud_event(agent_events)->'data' AS data FROM agent_events WHERE agent = 'http-agent' AND type = 'tool_call.outcome'`,
        );
        return rows[0];
      },
      { name: 'the outcome of the HTTP call applied' },
    );
    expect(outcome).toMatchObject({ tenant: 'acme', data: { status: 'succeeded', call: { tool: 'core__echo' } } });

    const initialize = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'curl', version: '0' } },
    };
    for (const authorization of [undefined, 'Bearer not-a-valid-key-0123456789', 'Basic abc']) {
      const response = await fetch(gateway.url!, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...(authorization === undefined ? {} : { authorization }),
        },
        body: JSON.stringify(initialize),
      });
      expect(response.status, String(authorization)).toBe(401);
      expect(response.headers.get('www-authenticate')).toMatch(/^Bearer/);
      expect(await response.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32001 } });
    }
    // The SDK client with a wrong key fails to connect, and nothing reached the upstream.
    const refused = new Client({ name: 'intruder', version: '1.0.0' });
    await expect(
      refused.connect(
        new StreamableHTTPClientTransport(new URL(gateway.url!), {
          requestInit: { headers: { authorization: 'Bearer not-a-valid-key-0123456789' } },
        }),
      ),
    ).rejects.toThrow(/401|Unauthorized|API key/i);
    expect(logged(calls)).toHaveLength(1);
  });

  it('Streamable HTTP: a key blocked by another agent of the same principal is refused before its first try, not forwarded', async () => {
    const { gateway, calls } = await httpGateway('http-blocked-agent');
    const client = await httpClient(gateway.url!, TENANT_KEYS.acme);
    const first = (await client.callTool({ name: 'core__read_report', arguments: { report: 'q4' } })) as CallToolResult;
    expect(first.structuredContent).toMatchObject({
      source: 'intervention',
      nextAllowedAction: 'stop_request_authorization',
    });
    expect(logged(calls)).toHaveLength(1);

    // A second gateway process's agent (same principal, another run and agent) is stopped before it tries.
    const other = await httpGateway('http-second-agent');
    const second = await httpClient(other.gateway.url!, TENANT_KEYS.acme);
    const denied = (await second.callTool({
      name: 'core__read_report',
      arguments: { report: 'q4' },
    })) as CallToolResult;
    expect(denied.isError).toBe(true);
    expect(denied.structuredContent).toMatchObject({ source: 'preflight', level: 'block' });
    expect(logged(other.calls)).toEqual([]);
  });
});
