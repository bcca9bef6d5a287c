import { randomUUID } from 'node:crypto';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { Readable, Writable } from 'node:stream';
import type { ResolvedGatewayConfig } from '@tokencircuit/mcp-gateway';
import { gatewayServer } from './downstream/gateway-server.js';
import { HttpDownstream } from './downstream/http-downstream.js';
import { TenantOfKey } from './downstream/tenant-of-key.js';
import { EventQueue, type EventQueueHealth } from '@tokencircuit/sdk';
import { SessionGovernance } from './governance/session-governance.js';
import { emptyAllowCacheCounts, type AllowCacheCounts } from './governance/allow-cache.js';
import type { UpstreamStatus } from './upstream/upstream-connection.js';
import { UpstreamPool } from './upstream/upstream-pool.js';

/** Where the agent reaches the gateway. */
export type Downstream =
  | 'stdio'
  /** stdio on given streams (the CLI passes its own). */
  | { readonly stdio: { readonly stdin: Readable; readonly stdout: Writable } }
  | { readonly http: { readonly host: string; readonly port: number } }
  /** Any MCP server transport, e.g. the SDK's InMemoryTransport for in-process use. */
  | { readonly transport: Transport };

export interface StartOptions {
  readonly downstream: Downstream;
  /** Overrides the config's backend (the CLI passes what it found: $TOKENCIRCUIT_URL, the data dir…). */
  readonly backend?: { readonly url?: string | null; readonly apiKey?: string | null };
  /** One line per event worth knowing (stderr by default: over stdio, stdout is the MCP channel). */
  readonly log?: (line: string) => void;
}

export interface GatewayHealth {
  readonly status: 'ok' | 'degraded';
  readonly upstreams: readonly UpstreamStatus[];
  readonly events: EventQueueHealth;
  /** Preflight answers reused inside the gateway (kept exact by the API's change feed), over all sessions. */
  readonly preflightAnswers: Readonly<AllowCacheCounts>;
}

export interface McpGateway {
  /** The Streamable HTTP endpoint (http://HOST:PORT/mcp), or null for stdio and a given transport. */
  readonly url: string | null;
  /** The run id of the stdio / given-transport session (HTTP runs are per request's key or X-TokenCircuit-Run). */
  readonly run: string | null;
  health(): GatewayHealth;
  /** Stops serving, closes the governors (flushing what they publish) and the upstreams. */
  close(): Promise<void>;
}

/**
 * Starts the MCP gateway (issue 29): connects the upstreams, then serves the agent over stdio, Streamable
 * HTTP or a given transport. Every tools/call goes through the SDK's governed-call pipeline.
 */
export async function startMcpGateway(config: ResolvedGatewayConfig, options: StartOptions): Promise<McpGateway> {
  const log = options.log ?? ((line: string) => process.stderr.write(`tokencircuit mcp: ${line}\n`));
  const backendUrl = (options.backend?.url ?? config.backend.url)?.replace(/\/+$/, '') ?? null;
  const backendKey = options.backend?.apiKey ?? config.backend.apiKey;
  if (backendUrl === null)
    throw new Error('backend.url: no TokenCircuit API URL (set it in the config, or TOKENCIRCUIT_URL)');
  const overHttp = typeof options.downstream === 'object' && 'http' in options.downstream;
  if (!overHttp && (backendKey === null || backendKey === undefined)) {
    throw new Error('backend.apiKey: no TokenCircuit API key (set it in the config, or TOKENCIRCUIT_API_KEY)');
  }
  if (!overHttp) {
    // A key of another tenant would have every event refused (tenant_mismatch): say so now, not per call.
    const key = await new TenantOfKey(backendUrl).check(backendKey!);
    if (key.ok && key.tenant !== config.tenant) {
      throw new Error(`tenant: the config says ${config.tenant}, but the API key belongs to tenant ${key.tenant}`);
    }
    if (!key.ok && key.status === 401) throw new Error(`backend.apiKey: ${key.message} by ${backendUrl}`);
    if (!key.ok) log(`${key.message}; calls follow their failMode until the backend answers`);
  }
  const queue = new EventQueue(config.eventQueueLimit, (line) => log(`events: ${line}`), {
    lingerMs: config.eventLingerMs,
  });
  const pool = new UpstreamPool(config.servers, log);
  await pool.start();
  const answers = emptyAllowCacheCounts();
  const health = (): GatewayHealth => {
    const upstreams = pool.status();
    const events = queue.health();
    const ok = upstreams.every((u) => u.state === 'up') && events.pending === 0;
    return { status: ok ? 'ok' : 'degraded', upstreams, events, preflightAnswers: { ...answers } };
  };
  const serverFor = (session: () => Promise<SessionGovernance>): Server => gatewayServer(config, pool, session, log);

  if (typeof options.downstream === 'object' && 'http' in options.downstream) {
    const { host, port } = options.downstream.http;
    const http = await HttpDownstream.listen(host, port, {
      agent: config.agent,
      keys: new TenantOfKey(backendUrl),
      openSession: (tenant, apiKey, run) =>
        SessionGovernance.open(config, { url: backendUrl, apiKey }, tenant, run, queue, log, answers),
      serverFor,
      health: () => ({ ...health() }),
      log,
    });
    log(`serving MCP over Streamable HTTP at ${http.url}`);
    return {
      url: http.url,
      run: null,
      health,
      close: async () => {
        await http.close();
        await shutdown(pool, queue);
      },
    };
  }

  const run = `mcp-${randomUUID()}`;
  let opened: Promise<SessionGovernance> | null = null;
  const session = () =>
    (opened ??= SessionGovernance.open(
      config,
      { url: backendUrl, apiKey: backendKey! },
      config.tenant,
      run,
      queue,
      log,
      answers,
    ));
  const server = serverFor(session);
  const forward = () => void server.sendToolListChanged().catch(() => undefined);
  const unsubscribe = pool.onToolsChanged(forward);
  const { downstream } = options;
  const transport =
    downstream === 'stdio'
      ? new StdioServerTransport()
      : 'stdio' in downstream
        ? new StdioServerTransport(downstream.stdio.stdin, downstream.stdio.stdout)
        : downstream.transport;
  await server.connect(transport);
  log(`serving MCP over ${'transport' in Object(downstream) ? 'the given transport' : 'stdio'} (run ${run})`);
  return {
    url: null,
    run,
    health,
    close: async () => {
      unsubscribe();
      await server.close();
      if (opened !== null) await (await opened).close().catch((error: unknown) => log(`closing: ${String(error)}`));
      await shutdown(pool, queue);
    },
  };
}

async function shutdown(pool: UpstreamPool, queue: EventQueue): Promise<void> {
  await queue.flush();
  queue.close();
  await pool.close();
}
