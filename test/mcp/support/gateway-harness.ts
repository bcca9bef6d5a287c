import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

export const REPO = fileURLToPath(new URL('../../../', import.meta.url));
export const CLI_BIN = join(REPO, 'bin/tokencircuit.mjs');
export const UPSTREAM_SCRIPT = fileURLToPath(new URL('./test-upstream-server.ts', import.meta.url));
/** tsx's ESM loader by absolute URL: the upstream starts from any working directory, in one process (no npx). */
export const TSX_LOADER = pathToFileURL(join(REPO, 'node_modules/tsx/dist/loader.mjs')).href;
export const EVERYTHING_BIN = join(REPO, 'node_modules/.bin/mcp-server-everything');

/** The name the test upstream has in every gateway config: its tools are `tickets__read_report`, … */
export const TICKETS = 'tickets';
/** The environment variable the configs name for the backend's API key (`"apiKey": { "env": … }`). */
export const API_KEY_ENV = 'TC_MCP_SPEC_API_KEY';

/** How the test upstream's tools are declared to the gateway: effects, resources, the create's reconcile. */
export const TICKET_TOOLS = {
  read_report: { effect: 'read', resourceClass: 'api_endpoint', resourceId: 'report' },
  set_priority: { effect: 'idempotent_write', resourceClass: 'api_endpoint', resourceId: 'id' },
  fetch_status: { effect: 'read', resourceClass: 'api_endpoint', resourceId: 'service' },
  search: { effect: 'read', resourceClass: 'api_endpoint' },
  create_ticket: {
    effect: 'write',
    resourceClass: 'api_endpoint',
    resourceId: 'id',
    reconcile: { tool: 'get_ticket', arguments: { id: 'id' }, exists: '$.id' },
  },
  get_ticket: { effect: 'read', resourceClass: 'api_endpoint', resourceId: 'id' },
  find_tickets: {
    effect: 'read',
    resourceClass: 'api_endpoint',
    resourceId: 'query',
    verifyEmpty: { tool: 'list_tickets', arguments: { query: 'query' }, found: '$.rows[0]' },
  },
  list_tickets: { effect: 'read', resourceClass: 'api_endpoint' },
  // The misbehaving tools read nothing and write nothing: declared reads, so their failures are judged as
  // such. `slow` is left undeclared on purpose: a tool of unknown effect that stalls may have written.
  crash: { effect: 'read' },
  slow_read: { effect: 'read' },
  big: { effect: 'read' },
  malformed: { effect: 'read' },
  rpc_error: { effect: 'read' },
} as const;

/** A scratch folder for one spec file: gateway configs and the upstream's calls log. */
export class Scratch {
  readonly dir = mkdtempSync(join(tmpdir(), 'tc-mcp-'));
  /** A fresh calls log path (the file appears with the first call). */
  callsFile(name = 'calls'): string {
    return join(this.dir, `${name}-${Math.random().toString(36).slice(2, 8)}.jsonl`);
  }
  write(name: string, value: unknown): string {
    const path = join(this.dir, name);
    writeFileSync(path, typeof value === 'string' ? value : JSON.stringify(value, null, 2));
    return path;
  }
  remove(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** The `servers.tickets` entry that launches the test upstream over stdio, logging its calls to `callsFile`. */
export function stdioTickets(callsFile: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    command: process.execPath,
    args: ['--import', TSX_LOADER, UPSTREAM_SCRIPT],
    env: { TEST_UPSTREAM_CALLS_FILE: callsFile },
    tools: TICKET_TOOLS,
    ...extra,
  };
}

export interface GatewayConfigInput {
  readonly apiUrl: string;
  readonly agent: string;
  readonly principal: string;
  readonly tenant?: string;
  readonly authScope?: string;
  readonly servers: Record<string, unknown>;
  readonly extra?: Record<string, unknown>;
}

/**
 * A gateway config file's content. The intervention wait is generous: on a shared 2-core machine the
 * backend's answer (Kafka, projector, decision, audit poll) takes seconds, and a call whose intervention
 * arrives after the wait keeps the upstream's own result.
 */
export function gatewayConfig(input: GatewayConfigInput): Record<string, unknown> {
  return {
    tenant: input.tenant ?? 'acme',
    agent: input.agent,
    principal: input.principal,
    ...(input.authScope === undefined ? {} : { authScope: input.authScope }),
    backend: { url: input.apiUrl, apiKey: { env: API_KEY_ENV } },
    interventionWaitMs: 20_000,
    servers: input.servers,
    ...input.extra,
  };
}

/** The environment a spawned gateway gets: this one's, minus anything that would point it elsewhere. */
export function gatewayEnv(apiKey: string, extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (value === undefined || /^(TOKENCIRCUIT_|KAFKA_|DATABASE_URL$)/.test(name)) continue;
    env[name] = value;
  }
  return { ...env, [API_KEY_ENV]: apiKey, LOG_LEVEL: 'warn', ...extra };
}

/** An MCP client of this spec, over any transport. */
export async function connectClient(transport: Transport, name = 'tc-mcp-spec'): Promise<Client> {
  const client = new Client({ name, version: '1.0.0' });
  await client.connect(transport);
  return client;
}

/**
 * The real CLI as an agent's MCP client launches it: `tokencircuit mcp --config FILE`, over stdio. The
 * gateway's stderr (its logs) is kept for the spec to print when something fails.
 */
export async function spawnStdioGateway(configFile: string, apiKey: string): Promise<SpawnedGateway> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI_BIN, 'mcp', '--config', configFile],
    env: gatewayEnv(apiKey),
    cwd: REPO,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const client = await connectClient(transport);
  return { client, stderr: () => stderr, close: () => client.close() };
}

export interface SpawnedGateway {
  readonly client: Client;
  stderr(): string;
  close(): Promise<void>;
}

/** A Streamable HTTP client of a gateway at `url`, authenticated with a TokenCircuit API key. */
export async function connectHttpClient(url: string, apiKey: string): Promise<Client> {
  return connectClient(
    new StreamableHTTPClientTransport(new URL(url), {
      requestInit: { headers: { authorization: `Bearer ${apiKey}` } },
    }),
  );
}

/** The text blocks of a tool result, joined. */
export function resultText(result: CallToolResult | Record<string, unknown>): string {
  const content = (result as CallToolResult).content ?? [];
  return content
    .filter((block): block is { type: 'text'; text: string } => block.type === 'text')
    .map((block) => block.text)
    .join('\n');
}

/** Calls a tool through a client and returns its result as a CallToolResult (the specs' one shape). */
export async function callTool(
  client: Client,
  name: string,
  args: Record<string, unknown>,
  timeoutMs = 60_000,
): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args }, undefined, { timeout: timeoutMs })) as CallToolResult;
}

/** A port nothing listens on now (the kernel's pick, released at once). */
export async function freePort(): Promise<number> {
  const { createServer } = await import('node:net');
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export interface HttpGatewayProcess {
  /** The gateway's MCP endpoint. */
  readonly url: string;
  readonly pid: number;
  stderr(): string;
  stop(): Promise<void>;
}

/**
 * `tokencircuit mcp --config FILE --http 127.0.0.1:PORT` as a process of its own; resolves once the endpoint
 * answers HTTP at all (a 4xx to an empty GET is an answer), rejects with its output if it exits first.
 */
export async function spawnHttpGateway(
  configFile: string,
  extraEnv: Record<string, string> = {},
  nodeArgs: readonly string[] = [],
): Promise<HttpGatewayProcess> {
  const { spawn } = await import('node:child_process');
  const port = await freePort();
  const args = [...nodeArgs, CLI_BIN, 'mcp', '--config', configFile, '--http', `127.0.0.1:${port}`];
  const child = spawn(process.execPath, args, {
    cwd: REPO,
    env: gatewayEnv('unused-over-http', extraEnv),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  let exitCode: number | null | undefined;
  void exited.then((code) => (exitCode = code));
  const url = `http://127.0.0.1:${port}/mcp`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (exitCode !== undefined) throw new Error(`the HTTP gateway exited (${exitCode}) before it listened:\n${output}`);
    const answered = await fetch(url, { method: 'GET' }).then(
      () => true,
      () => false,
    );
    if (answered) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the HTTP gateway did not listen on ${url} within 60 s:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url,
    pid: child.pid!,
    stderr: () => output,
    stop: async () => {
      if (exitCode === undefined) child.kill('SIGTERM');
      await exited;
    },
  };
}

export interface InProcessGateway {
  readonly url: string;
  logs(): string;
  health(): unknown;
  stop(): Promise<void>;
}

/**
 * The gateway in this process through its programmatic entry (apps/mcp-gateway: loadGatewayConfigFile +
 * startMcpGateway), serving Streamable HTTP on a free port: what `--http` runs, without a CLI start-up.
 */
export async function startHttpGatewayInProcess(
  configFile: string,
  env: Record<string, string> = gatewayEnv('unused-over-http'),
): Promise<InProcessGateway> {
  const { loadGatewayConfigFile, startMcpGateway } = await import('../../../apps/mcp-gateway/src/index.js');
  const lines: string[] = [];
  const gateway = await startMcpGateway(loadGatewayConfigFile(configFile, env), {
    downstream: { http: { host: '127.0.0.1', port: 0 } },
    log: (line) => void lines.push(line),
  });
  return {
    url: gateway.url!,
    logs: () => lines.join('\n'),
    health: () => gateway.health(),
    stop: () => gateway.close(),
  };
}

export interface LinkedGateway {
  readonly client: Client;
  logs(): string;
  health(): {
    status: string;
    upstreams: readonly { name: string; state: string; restarts: number }[];
    events: { pending: number; published: number; refused: number };
  };
  stop(): Promise<void>;
}

/**
 * The gateway in this process, its downstream an in-memory transport linked to a client of this spec: the
 * same server and session as over stdio (one run per connection, the config's tenant and key), without a
 * process start; health() and the log lines are the spec's to read.
 */
export async function startLinkedGatewayInProcess(
  configFile: string,
  apiKey: string,
  env: Record<string, string> = {},
): Promise<LinkedGateway> {
  const { InMemoryTransport } = await import('@modelcontextprotocol/sdk/inMemory.js');
  const { loadGatewayConfigFile, startMcpGateway } = await import('../../../apps/mcp-gateway/src/index.js');
  const [clientSide, gatewaySide] = InMemoryTransport.createLinkedPair();
  const lines: string[] = [];
  const gateway = await startMcpGateway(loadGatewayConfigFile(configFile, gatewayEnv(apiKey, env)), {
    downstream: { transport: gatewaySide },
    log: (line) => void lines.push(line),
  });
  const client = await connectClient(clientSide);
  return {
    client,
    logs: () => lines.join('\n'),
    health: () => gateway.health() as unknown as ReturnType<LinkedGateway['health']>,
    stop: async () => {
      await client.close();
      await gateway.close();
    },
  };
}
