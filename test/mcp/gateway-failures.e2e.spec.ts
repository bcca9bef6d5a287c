import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '@tokencircuit/testing';
import { loadGatewayConfig } from '@tokencircuit/mcp-gateway';
import { startMcpGateway, type McpGateway } from '../../apps/mcp-gateway/src/index.js';
import { FleetStack, TENANT_KEYS } from '../sdk/support/fleet-stack.js';

/**
 * The gateway when something fails (issue 29 points 1 and 4): the backend unreachable (a write fails closed
 * and is not sent; a read fails open, its events held and delivered once the backend is back, each once),
 * and the upstream dying in the middle of a write (the outcome is unknown, the upstream is restarted, and
 * the same write is not sent again before it is reconciled). Real upstream process, real fleet.
 */
const REPO = fileURLToPath(new URL('../../', import.meta.url));
const TSX_LOADER = pathToFileURL(join(REPO, 'node_modules/tsx/dist/loader.mjs')).href;
const FIXTURE = fileURLToPath(new URL('./support/core-fixture-server.ts', import.meta.url));

/** A TCP door in front of the API that can be shut (connections reset) and opened again. */
class BackendDoor {
  open = true;
  private readonly sockets = new Set<Socket>();
  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}
  static async start(target: string): Promise<BackendDoor> {
    const { hostname, port } = new URL(target);
    let door: BackendDoor | null = null;
    const server = createServer((client) => {
      if (!door!.open) return void client.destroy();
      const upstream = connect(Number(port), hostname);
      for (const socket of [client, upstream]) {
        door!.sockets.add(socket);
        socket.on('close', () => door!.sockets.delete(socket));
        socket.on('error', () => undefined);
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address() as { port: number };
    door = new BackendDoor(server, `http://127.0.0.1:${address.port}`);
    return door;
  }
  shut(): void {
    this.open = false;
    for (const socket of this.sockets) socket.destroy();
  }
  close(): Promise<void> {
    this.shut();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

describe('the MCP gateway when the backend or the upstream fails', () => {
  let stack: FleetStack;
  let dir: string;
  const closers: Array<() => Promise<void>> = [];

  beforeAll(async () => {
    stack = await FleetStack.start();
    dir = mkdtempSync(join(tmpdir(), 'tc-mcp-fail-'));
  });
  afterAll(async () => {
    for (const close of closers.reverse()) await close().catch(() => undefined);
    await stack?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const logged = (calls: string): Array<{ tool: string }> =>
    existsSync(calls)
      ? readFileSync(calls, 'utf8')
          .split('\n')
          .filter((line) => line !== '')
          .map((line) => JSON.parse(line) as { tool: string })
      : [];
  const textOf = (result: CallToolResult): string =>
    result.content.map((block) => (block.type === 'text' ? block.text : '')).join('\n');
  const events = async (agent: string, type: string) => {
    const { rows } = await stack.database.pool.query<{ id: string; data: Record<string, unknown> }>(
      `SELECT id, tokencircuit_cloud_event(agent_events)->'data' AS data FROM agent_events WHERE agent = $1 AND type = $2`,
      [agent, type],
    );
    return rows;
  };

  /** A gateway in this process on `backendUrl`, and a real MCP client linked to it in memory. */
  const start = async (agent: string, backendUrl: string, eventQueueLimit = 10_000) => {
    const calls = join(dir, `${agent}-calls.jsonl`);
    const config = loadGatewayConfig(
      {
        tenant: 'acme',
        agent,
        principal: 'svc-notes',
        backend: { url: backendUrl, apiKey: TENANT_KEYS.acme },
        interventionWaitMs: 30_000,
        eventQueueLimit,
        servers: {
          core: {
            command: process.execPath,
            args: ['--import', TSX_LOADER, FIXTURE],
            env: { CORE_FIXTURE_CALLS: calls },
            tools: {
              echo: { effect: 'read' },
              create_note: { effect: 'write', resourceId: 'id' },
              crash_note: { effect: 'write', resourceId: 'id' },
            },
          },
        },
      },
      {},
    );
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const gateway: McpGateway = await startMcpGateway(config, {
      downstream: { transport: serverSide },
      log: () => undefined,
    });
    const client = new Client({ name: `spec-${agent}`, version: '1.0.0' });
    await client.connect(clientSide);
    closers.push(
      () => gateway.close(),
      () => client.close(),
    );
    return { gateway, client, calls };
  };

  it('backend unreachable: a write fails closed (not sent, said so), a read fails open and its events arrive once the backend is back', async () => {
    const door = await BackendDoor.start(stack.apiUrl);
    closers.push(() => door.close());
    const { gateway, client, calls } = await start('fail-modes-agent', door.url);
    door.shut();

    const write = (await client.callTool({
      name: 'core__create_note',
      arguments: { id: 'n-9', text: 'x' },
    })) as CallToolResult;
    expect(write.isError).toBe(true);
    expect(textOf(write)).toMatch(/^TokenCircuit could not check core__create_note because governance is unavailable/);
    expect(write.structuredContent).toMatchObject({ tokencircuit: 'governance_unavailable' });
    expect(logged(calls)).toEqual([]);

    const read = (await client.callTool({ name: 'core__echo', arguments: { text: 'still here' } })) as CallToolResult;
    expect(JSON.parse(textOf(read))).toEqual({ echoed: 'still here' });
    expect(logged(calls).map((call) => call.tool)).toEqual(['echo']);
    // Both events of the read are held, and health says so.
    expect(gateway.health()).toMatchObject({ status: 'degraded', events: { pending: 2, refused: 0 } });

    door.open = true;
    await waitFor(() => gateway.health().events.pending === 0, { maxWait: 90_000, name: 'the held events published' });
    const requested = await waitFor(
      async () => {
        const rows = await events('fail-modes-agent', 'tool_call.requested');
        return rows.length > 0 ? rows : null;
      },
      { name: 'the held requested event applied' },
    );
    const outcomes = await waitFor(
      async () => {
        const rows = await events('fail-modes-agent', 'tool_call.outcome');
        return rows.length > 0 ? rows : null;
      },
      { name: 'the held outcome applied' },
    );
    expect(requested).toHaveLength(1);
    expect(outcomes).toHaveLength(1);
    expect(outcomes[0]!.data).toMatchObject({ status: 'succeeded', call: { tool: 'core__echo' } });
    expect(gateway.health().events).toMatchObject({ pending: 0, published: 2 });
  });

  it('backend unreachable and the event queue full: a call whose requested event cannot be held is not sent', async () => {
    const door = await BackendDoor.start(stack.apiUrl);
    closers.push(() => door.close());
    const { gateway, client, calls } = await start('queue-full-agent', door.url, 1);
    door.shut();

    // The requested event takes the one place; the outcome cannot be held, but the read ran: its result is given.
    const first = (await client.callTool({ name: 'core__echo', arguments: { text: 'one' } })) as CallToolResult;
    expect(JSON.parse(textOf(first))).toEqual({ echoed: 'one' });
    expect(gateway.health().events).toMatchObject({ pending: 1, refused: 1 });

    // Now not even the requested event can be held: the call is refused before it is sent.
    const second = (await client.callTool({ name: 'core__echo', arguments: { text: 'two' } })) as CallToolResult;
    expect(second.isError).toBe(true);
    expect(textOf(second)).toMatch(/governance is unavailable \(events cannot be recorded\), so it was not sent/);
    expect(logged(calls).map((call) => call.tool)).toEqual(['echo']);
    expect(gateway.health().events).toMatchObject({ pending: 1, refused: 2 });
  });

  it('a refused API key, or a key of another tenant than the config, stops the start naming what to fix', async () => {
    const configOf = (tenant: string, apiKey: string) =>
      loadGatewayConfig(
        {
          tenant,
          agent: 'start-check-agent',
          principal: 'svc-notes',
          backend: { url: stack.apiUrl, apiKey },
          servers: { core: { command: process.execPath, args: ['--import', TSX_LOADER, FIXTURE] } },
        },
        {},
      );
    const [clientSide] = InMemoryTransport.createLinkedPair();
    await expect(
      startMcpGateway(configOf('globex', TENANT_KEYS.acme), {
        downstream: { transport: clientSide },
        log: () => undefined,
      }),
    ).rejects.toThrow('tenant: the config says globex, but the API key belongs to tenant acme');
    await expect(
      startMcpGateway(configOf('acme', 'not-a-valid-key-0123456789'), {
        downstream: { transport: clientSide },
        log: () => undefined,
      }),
    ).rejects.toThrow(/^backend\.apiKey: the TokenCircuit API key was refused by http/);
  });

  it('upstream dies during a write: unknown outcome, the upstream is restarted, and the same write is not sent again', async () => {
    const { gateway, client, calls } = await start('crash-agent', stack.apiUrl);

    const crashed = (await client.callTool({ name: 'core__crash_note', arguments: { id: 'c-1' } })) as CallToolResult;
    expect(crashed.isError).toBe(true);
    expect(textOf(crashed)).toMatch(/may (already )?have taken effect/);
    const outcome = await waitFor(async () => (await events('crash-agent', 'tool_call.outcome'))[0], {
      name: 'the crash outcome applied',
    });
    expect(outcome.data).toMatchObject({ status: 'unknown', dispatch: { requestSent: true, responseReceived: false } });

    await waitFor(
      () => gateway.health().upstreams.find((u) => u.name === 'core' && u.state === 'up' && u.restarts >= 1),
      { maxWait: 60_000, name: 'the upstream restarted' },
    );
    const echoed = (await client.callTool({ name: 'core__echo', arguments: { text: 'back' } })) as CallToolResult;
    expect(JSON.parse(textOf(echoed))).toEqual({ echoed: 'back' });

    const again = (await client.callTool({ name: 'core__crash_note', arguments: { id: 'c-1' } })) as CallToolResult;
    expect(again.isError).toBe(true);
    expect(again.structuredContent).toMatchObject({ source: 'preflight', nextAllowedAction: 'reconcile_before_retry' });
    expect(logged(calls).map((call) => call.tool)).toEqual(['crash_note', 'echo']);
  });
});
