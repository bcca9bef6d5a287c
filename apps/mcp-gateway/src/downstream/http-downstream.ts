import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isJsonContentType } from '@modelcontextprotocol/sdk/shared/mediaType.js';
import { SUPPORTED_PROTOCOL_VERSIONS, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { JsonReplyTransport } from './json-reply-transport.js';
import { isInitializeMessage, isRequestMessage, jsonRpcMessageOf } from './json-rpc-message.js';
import type { SessionGovernance } from '../governance/session-governance.js';
import type { TenantOfKey } from './tenant-of-key.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';

/** Governors kept per (key, run) on this replica: a cache only, any replica can build one for any call. */
const MAX_SESSIONS = 1_000;
const MAX_BODY_BYTES = 4 * 1024 * 1024;

export interface HttpDownstreamDeps {
  /** The config's agent: part of the derived run id, so two agents sharing a key never share a run. */
  readonly agent: string;
  readonly keys: TenantOfKey;
  readonly openSession: (tenant: string, apiKey: string, run: string) => Promise<SessionGovernance>;
  readonly serverFor: (session: () => Promise<SessionGovernance>) => Server;
  readonly health: () => Record<string, unknown>;
  readonly log: (line: string) => void;
}

/**
 * Streamable HTTP toward the agent, stateless: every POST /mcp carries `Authorization: Bearer <TokenCircuit
 * API key>`, the tenant is the key's (asked of the backend), and a fresh MCP server answers it, so several
 * replicas work behind a load balancer. The run is `X-TokenCircuit-Run` when the client names one, else one
 * run per key and agent, the same on every replica. GET /health reports upstreams and the event queue.
 */
export class HttpDownstream {
  private readonly sessions = new Map<string, Promise<SessionGovernance>>();
  /** One MCP server per (key, run) answering single-message POSTs (JsonReplyTransport); a cache like sessions. */
  private readonly servers = new Map<string, Promise<JsonReplyTransport>>();

  private constructor(
    private readonly http: HttpServer,
    readonly url: string,
    private readonly deps: HttpDownstreamDeps,
  ) {}

  static async listen(host: string, port: number, deps: HttpDownstreamDeps): Promise<HttpDownstream> {
    let downstream: HttpDownstream | null = null;
    const http = createServer((req, res) => {
      void downstream!.handle(req, res).catch((error: unknown) => {
        deps.log(`HTTP ${req.method} ${req.url}: ${error instanceof Error ? error.message : String(error)}`);
        if (!res.headersSent) reply(res, 500, { error: 'internal_error' });
        else res.end();
      });
    });
    await new Promise<void>((resolve, reject) => {
      http.once('error', reject);
      http.listen(port, host, () => resolve());
    });
    const address = http.address() as AddressInfo;
    const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
    downstream = new HttpDownstream(http, `http://${shownHost}:${address.port}/mcp`, deps);
    return downstream;
  }

  async close(): Promise<void> {
    this.http.closeAllConnections();
    await new Promise<void>((resolve) => this.http.close(() => resolve()));
    const servers = [...this.servers.values()];
    this.servers.clear();
    await Promise.allSettled(servers.map(async (s) => (await s).close()));
    const sessions = [...this.sessions.values()];
    this.sessions.clear();
    await Promise.allSettled(sessions.map(async (s) => (await s).close()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '/').split('?')[0];
    if (path === '/health' && req.method === 'GET') {
      reply(res, 200, this.deps.health());
      return;
    }
    if (path !== '/mcp') {
      reply(res, 404, { error: 'not_found', message: 'the MCP endpoint is /mcp' });
      return;
    }
    const apiKey = bearerOf(req);
    if (apiKey === null) {
      unauthorized(res, 'an API key is required: Authorization: Bearer <TokenCircuit API key>');
      return;
    }
    const check = await this.deps.keys.check(apiKey);
    if (!check.ok) {
      if (check.status === 401) unauthorized(res, check.message);
      else jsonRpcError(res, 503, -32603, check.message);
      return;
    }
    const body = req.method === 'POST' ? await readJson(req) : undefined;
    if (body instanceof Error) {
      jsonRpcError(res, 400, -32700, `Parse error: ${body.message}`);
      return;
    }
    const run = runOf(req, apiKey, check.tenant, this.deps.agent);
    const single = req.method === 'POST' ? singleMessageOf(req, body) : null;
    if (single !== null) {
      if ('error' in single) {
        jsonRpcError(res, single.status, single.code, single.error);
        return;
      }
      const transport = await this.serverOf(check.tenant, apiKey, run);
      if (isRequestMessage(single.message)) transport.request(single.message, res);
      else {
        transport.deliver(single.message);
        res.writeHead(202).end();
      }
      return;
    }
    // Batches, GET and DELETE: the SDK's own transport, a server of its own for this request.
    const session = () => this.session(check.tenant, apiKey, run);
    const server = this.deps.serverFor(session);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  }

  private serverOf(tenant: string, apiKey: string, run: string): Promise<JsonReplyTransport> {
    const key = `${digest(apiKey)}\u0000${run}`;
    const known = this.servers.get(key);
    if (known !== undefined) {
      this.servers.delete(key);
      this.servers.set(key, known);
      return known;
    }
    const server = this.deps.serverFor(() => this.session(tenant, apiKey, run));
    const transport = new JsonReplyTransport();
    const connected = server.connect(transport).then(() => transport);
    connected.catch(() => this.servers.delete(key));
    this.servers.set(key, connected);
    while (this.servers.size > MAX_SESSIONS) {
      const [oldestKey, oldest] = this.servers.entries().next().value as [string, Promise<JsonReplyTransport>];
      this.servers.delete(oldestKey);
      void oldest.then((t) => t.close()).catch(() => undefined);
    }
    return connected;
  }

  private session(tenant: string, apiKey: string, run: string): Promise<SessionGovernance> {
    const key = `${digest(apiKey)}\u0000${run}`;
    const known = this.sessions.get(key);
    if (known !== undefined) {
      this.sessions.delete(key);
      this.sessions.set(key, known);
      return known;
    }
    const opened = this.deps.openSession(tenant, apiKey, run);
    opened.catch(() => this.sessions.delete(key));
    this.sessions.set(key, opened);
    while (this.sessions.size > MAX_SESSIONS) {
      const [oldestKey, oldest] = this.sessions.entries().next().value as [string, Promise<SessionGovernance>];
      this.sessions.delete(oldestKey);
      void oldest.then((s) => s.close()).catch(() => undefined);
    }
    return opened;
  }
}

const digest = (text: string): string => createHash('sha256').update(text).digest('hex');

function runOf(req: IncomingMessage, apiKey: string, tenant: string, agent: string): string {
  const named = req.headers['x-tokencircuit-run'];
  const run = Array.isArray(named) ? named[0] : named;
  if (run !== undefined && /^[A-Za-z0-9._:-]{1,128}$/.test(run)) return run;
  return `mcp-http-${digest(`${tenant}\u0000${agent}\u0000${apiKey}`).slice(0, 16)}`;
}

type SingleMessage =
  { readonly message: JSONRPCMessage } | { readonly status: number; readonly code: number; readonly error: string };

/**
 * A POST body of one JSON-RPC message, checked as the SDK's Streamable HTTP transport checks it (same statuses,
 * codes and messages); null for a batch, which the SDK's transport answers.
 */
function singleMessageOf(req: IncomingMessage, body: unknown): SingleMessage | null {
  if (Array.isArray(body)) return null;
  const accept = req.headers.accept;
  if (!accept?.includes('application/json') || !accept.includes('text/event-stream'))
    return {
      status: 406,
      code: -32000,
      error: 'Not Acceptable: Client must accept both application/json and text/event-stream',
    };
  if (!isJsonContentType(req.headers['content-type']))
    return { status: 415, code: -32000, error: 'Unsupported Media Type: Content-Type must be application/json' };
  const message = jsonRpcMessageOf(body);
  if (message === null) return { status: 400, code: -32700, error: 'Parse error: Invalid JSON-RPC message' };
  const version = req.headers['mcp-protocol-version'];
  if (!isInitializeMessage(message) && typeof version === 'string' && !SUPPORTED_PROTOCOL_VERSIONS.includes(version))
    return {
      status: 400,
      code: -32000,
      error: `Bad Request: Unsupported protocol version: ${version} (supported versions: ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')})`,
    };
  return { message };
}

function bearerOf(req: IncomingMessage): string | null {
  const header = req.headers.authorization;
  const match = typeof header === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  return match?.[1] ?? null;
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) return new Error(`the body is over ${MAX_BODY_BYTES} bytes`);
    chunks.push(chunk as Buffer);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch (error) {
    return error as Error;
  }
}

function reply(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
}

function jsonRpcError(res: ServerResponse, status: number, code: number, message: string): void {
  reply(res, status, { jsonrpc: '2.0', error: { code, message }, id: null });
}

function unauthorized(res: ServerResponse, message: string): void {
  reply(
    res,
    401,
    { jsonrpc: '2.0', error: { code: -32001, message }, id: null },
    {
      'www-authenticate': 'Bearer realm="tokencircuit"',
    },
  );
}
