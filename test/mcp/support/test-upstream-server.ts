import { appendFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { CallToolResult, JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

/**
 * A real MCP server the gateway specs put behind the gateway: one tool per failure class of the RFC,
 * a create that applies its write and then never answers, its read tool, an empty search, and tools
 * that misbehave the way real servers do (crash, stall, malformed or JSON-RPC-error replies, huge results).
 *
 * Every tool call that reaches this server is appended, one JSON line, to the file named by
 * TEST_UPSTREAM_CALLS_FILE before the tool does anything: "a blocked call never reaches the upstream" is
 * counted here, at the upstream, by `readUpstreamCalls`. Append-only so that several upstream processes
 * (one per gateway) can share one log.
 *
 * Run it as an MCP server over stdio:            tsx test/mcp/support/test-upstream-server.ts
 * or over Streamable HTTP (prints its URL):      tsx test/mcp/support/test-upstream-server.ts --http 0
 * or in-process:                                 await startHttpUpstream({ callsFile })
 */

/** The error texts each failure-class tool answers with, and the class libs/governance gives them. */
export const UPSTREAM_TEXTS = {
  // message:permission_denied → permission
  permission: 'permission denied: svc-reporting is not authorized to read the salaries report (scope finance:read)',
  // message:invalid_request → validation
  validation: 'invalid arguments: priority must be one of low|normal|high',
  // message:rate_limited → transient (rejected: nothing happened, safe to retry)
  transient: 'rate limited: too many requests for this service, retry after 1 s',
  // message:not_found → missing_resource
  notFound: (id: string) => `ticket ${id} not found`,
} as const;

export const UPSTREAM_SERVER_NAME = 'tc-test-upstream';
/** Failed calls of fetch_status per service before it answers, unless the call says otherwise. */
export const DEFAULT_TRANSIENT_FAILURES = 2;

/** A ticket every upstream process starts with, for the searches of the empty-result scenario. */
export const SEEDED_TICKET = { id: 'KB-7', title: 'Paper jam in tray 2' } as const;

/** One line of the calls log: a tool call that reached this server. */
export interface UpstreamCall {
  readonly tool: string;
  readonly arguments: Record<string, unknown>;
  readonly pid: number;
  readonly at: string;
}

/** State shared by every session of one upstream process (tickets written, transient failures left). */
interface UpstreamState {
  readonly callsFile: string | null;
  readonly tickets: Map<string, { id: string; title: string }>;
  readonly transientCalls: Map<string, number>;
  /** JSON-RPC ids of calls whose reply the transport must spoil, and how. */
  readonly spoil: Map<string | number, 'malformed' | 'rpc_error'>;
}

const text = (value: string): CallToolResult['content'] => [{ type: 'text', text: value }];
const failure = (message: string): CallToolResult => ({ isError: true, content: text(message) });

function record(state: UpstreamState, tool: string, args: Record<string, unknown>): void {
  if (state.callsFile === null) return;
  const line: UpstreamCall = { tool, arguments: args, pid: process.pid, at: new Date().toISOString() };
  appendFileSync(state.callsFile, `${JSON.stringify(line)}\n`);
}

/** Resolves when the client gives up on the request (cancellation, closed session); never otherwise. */
const untilAborted = (signal: AbortSignal): Promise<never> =>
  new Promise((_, reject) => signal.addEventListener('abort', () => reject(new Error('cancelled')), { once: true }));

function registerTools(server: McpServer, state: UpstreamState): void {
  const counted =
    <A extends Record<string, unknown>>(
      tool: string,
      handler: (args: A, signal: AbortSignal) => Promise<CallToolResult>,
    ) =>
    async (args: A, extra: { signal: AbortSignal }): Promise<CallToolResult> => {
      record(state, tool, args);
      return handler(args, extra.signal);
    };

  server.registerTool(
    'read_report',
    {
      description: 'Run a query against a finance report. The salaries report is restricted.',
      inputSchema: { report: z.string(), query: z.string() },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    counted('read_report', async ({ report, query }: { report: string; query: string }) =>
      report === 'salaries'
        ? failure(UPSTREAM_TEXTS.permission)
        : { content: text(JSON.stringify({ report, query, rows: [{ total: 42 }] })) },
    ),
  );

  server.registerTool(
    'set_priority',
    {
      description: 'Set the priority of a ticket (low, normal or high).',
      // A plain string on purpose: the server, not the SDK's schema check, refuses a bad priority.
      inputSchema: { id: z.string(), priority: z.string() },
      annotations: { readOnlyHint: false, idempotentHint: true, destructiveHint: false },
    },
    counted('set_priority', async ({ id, priority }: { id: string; priority: string }) =>
      ['low', 'normal', 'high'].includes(priority)
        ? { content: text(JSON.stringify({ id, priority })), structuredContent: { id, priority } }
        : failure(UPSTREAM_TEXTS.validation),
    ),
  );

  server.registerTool(
    'fetch_status',
    {
      description: 'Status of a service; rate-limited for its first calls.',
      inputSchema: { service: z.string(), failFirst: z.number().int().min(0).optional() },
      annotations: { readOnlyHint: true },
    },
    counted('fetch_status', async ({ service, failFirst }: { service: string; failFirst?: number }) => {
      const seen = (state.transientCalls.get(service) ?? 0) + 1;
      state.transientCalls.set(service, seen);
      if (seen <= (failFirst ?? DEFAULT_TRANSIENT_FAILURES)) return failure(UPSTREAM_TEXTS.transient);
      return { content: text(JSON.stringify({ service, status: 'ok', attempt: seen })) };
    }),
  );

  server.registerTool(
    'search',
    {
      description:
        'Search tickets. Finds nothing, whatever the query: the caller must tell valid empty from wrong query.',
      inputSchema: { query: z.string() },
      annotations: { readOnlyHint: true },
    },
    counted('search', async () => ({ content: text('[]'), structuredContent: { rows: [] } })),
  );

  // The RFC's "valid empty vs query probably wrong": find_tickets matches titles exactly (a stray space or a
  // capital finds nothing); list_tickets is the broader read that tells the two apart.
  server.registerTool(
    'find_tickets',
    {
      description: 'Find tickets whose title is exactly the query.',
      inputSchema: { query: z.string() },
      annotations: { readOnlyHint: true },
    },
    counted('find_tickets', async ({ query }: { query: string }) => {
      const rows = [...state.tickets.values()].filter((t) => t.title === query);
      return { content: text(JSON.stringify(rows)), structuredContent: { rows } };
    }),
  );

  server.registerTool(
    'list_tickets',
    {
      description: 'List tickets whose title contains the words of the query, whatever their case and spacing.',
      inputSchema: { query: z.string() },
      annotations: { readOnlyHint: true },
    },
    counted('list_tickets', async ({ query }: { query: string }) => {
      const words = query.trim().toLowerCase().split(/\s+/).filter(Boolean);
      const rows = [...state.tickets.values()].filter((t) => words.every((w) => t.title.toLowerCase().includes(w)));
      return { content: text(JSON.stringify(rows)), structuredContent: { rows } };
    }),
  );

  server.registerTool(
    'create_ticket',
    {
      description: 'Create a ticket with the given id. Applies the write, then never answers.',
      inputSchema: { id: z.string(), title: z.string() },
      annotations: { readOnlyHint: false, idempotentHint: false, destructiveHint: false },
    },
    counted('create_ticket', async ({ id, title }: { id: string; title: string }, signal) => {
      // The effect lands first; the answer never comes: the caller's timeout is all it will see.
      state.tickets.set(id, { id, title });
      return untilAborted(signal);
    }),
  );

  server.registerTool(
    'get_ticket',
    {
      description: 'Read a ticket by id.',
      inputSchema: { id: z.string() },
      annotations: { readOnlyHint: true },
    },
    counted('get_ticket', async ({ id }: { id: string }) => {
      const ticket = state.tickets.get(id);
      if (ticket === undefined) return failure(UPSTREAM_TEXTS.notFound(id));
      return { content: text(JSON.stringify(ticket)), structuredContent: ticket };
    }),
  );

  server.registerTool(
    'slow',
    {
      description: 'Answers after the given number of milliseconds.',
      inputSchema: { ms: z.number().int().min(0) },
      annotations: { readOnlyHint: true },
    },
    counted('slow', async ({ ms }: { ms: number }, signal) => {
      await Promise.race([new Promise((resolve) => setTimeout(resolve, ms)), untilAborted(signal)]);
      return { content: text(`slept ${ms} ms`) };
    }),
  );

  server.registerTool(
    'slow_read',
    {
      description: 'A read that answers after the given number of milliseconds.',
      inputSchema: { ms: z.number().int().min(0) },
      annotations: { readOnlyHint: true },
    },
    counted('slow_read', async ({ ms }: { ms: number }, signal) => {
      await Promise.race([new Promise((resolve) => setTimeout(resolve, ms)), untilAborted(signal)]);
      return { content: text(`read after ${ms} ms`) };
    }),
  );

  server.registerTool(
    'crash',
    {
      description: 'Exits the server process without answering (an upstream crash while a call is in flight).',
      inputSchema: { code: z.number().int().optional() },
      annotations: { readOnlyHint: true },
    },
    counted('crash', async ({ code }: { code?: number }) => process.exit(code ?? 1)),
  );

  server.registerTool(
    'big',
    {
      description: 'Answers with a text of the given size in bytes.',
      inputSchema: { bytes: z.number().int().min(0) },
      annotations: { readOnlyHint: true },
    },
    counted('big', async ({ bytes }: { bytes: number }) => ({ content: text('x'.repeat(bytes)) })),
  );

  server.registerTool(
    'malformed',
    {
      description: 'Answers with a reply that is not a CallToolResult (content is not an array).',
      inputSchema: {},
      annotations: { readOnlyHint: true },
    },
    async (_args: Record<string, never>, extra) => {
      record(state, 'malformed', {});
      state.spoil.set(extra.requestId, 'malformed');
      return { content: text('this reply is replaced on the wire') };
    },
  );

  server.registerTool(
    'rpc_error',
    {
      description: 'Answers with a JSON-RPC error (-32603 internal error) instead of a result.',
      inputSchema: {},
      annotations: { readOnlyHint: true },
    },
    async (_args: Record<string, never>, extra) => {
      record(state, 'rpc_error', {});
      state.spoil.set(extra.requestId, 'rpc_error');
      return { content: text('this reply is replaced on the wire') };
    },
  );
}

/**
 * McpServer only ever sends well-formed replies, and a tool that throws becomes an isError result, never a
 * JSON-RPC error: the replies of `malformed` and `rpc_error` are rewritten here, on their way out.
 */
function spoilingReplies(transport: Transport, state: UpstreamState): Transport {
  const send = transport.send.bind(transport);
  transport.send = async (message: JSONRPCMessage, options) => {
    const id = 'id' in message ? message.id : undefined;
    const how = id === undefined ? undefined : state.spoil.get(id);
    if (how === undefined || !('result' in message)) return send(message, options);
    state.spoil.delete(id!);
    const spoiled =
      how === 'malformed'
        ? { jsonrpc: '2.0' as const, id: id!, result: { content: 'not a list of content blocks', isError: 'maybe' } }
        : {
            jsonrpc: '2.0' as const,
            id: id!,
            error: { code: -32603, message: 'Internal error: upstream store unavailable' },
          };
    return send(spoiled as JSONRPCMessage, options);
  };
  return transport;
}

function newState(callsFile: string | null): UpstreamState {
  return { callsFile, tickets: new Map([[SEEDED_TICKET.id, { ...SEEDED_TICKET }]]), transientCalls: new Map(), spoil: new Map() };
}

function newServer(state: UpstreamState): McpServer {
  const server = new McpServer({ name: UPSTREAM_SERVER_NAME, version: '1.0.0' });
  registerTools(server, state);
  return server;
}

/** Serves the test upstream over stdio (what `command` + `args` in a gateway config start). */
export async function serveStdio(callsFile: string | null): Promise<void> {
  const state = newState(callsFile);
  await newServer(state).connect(spoilingReplies(new StdioServerTransport(), state));
}

export interface HttpUpstream {
  /** The MCP endpoint, e.g. http://127.0.0.1:41234/mcp */
  readonly url: string;
  /** Authorization headers the server received, in order (to check `headers` from a gateway config). */
  readonly authorizations: (string | null)[];
  close(): Promise<void>;
}

/**
 * Serves the test upstream over Streamable HTTP, stateless (a fresh server and transport per request, as
 * behind a load balancer); the tickets and transient counters are the process's, shared by every request.
 */
export async function startHttpUpstream(options: {
  callsFile: string | null;
  port?: number;
  host?: string;
}): Promise<HttpUpstream> {
  const state = newState(options.callsFile);
  const authorizations: (string | null)[] = [];
  const http: HttpServer = createServer((request: IncomingMessage, response: ServerResponse) => {
    if (request.url?.split('?')[0] !== '/mcp') {
      response.writeHead(404).end();
      return;
    }
    authorizations.push(request.headers.authorization ?? null);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    const server = newServer(state);
    response.on('close', () => {
      void transport.close();
      void server.close();
    });
    server
      .connect(spoilingReplies(transport, state))
      .then(() => transport.handleRequest(request, response))
      .catch((error: unknown) => {
        if (!response.headersSent) response.writeHead(500).end(String(error));
      });
  });
  await new Promise<void>((resolve) => http.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://${options.host ?? '127.0.0.1'}:${port}/mcp`,
    authorizations,
    close: async () => {
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

const isMain = process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href;
if (isMain) {
  const callsFile = process.env['TEST_UPSTREAM_CALLS_FILE'] ?? null;
  const at = process.argv.indexOf('--http');
  if (at === -1) {
    await serveStdio(callsFile);
  } else {
    const upstream = await startHttpUpstream({ callsFile, port: Number(process.argv[at + 1] ?? 0) });
    // The one line a parent process waits for.
    process.stdout.write(`${upstream.url}\n`);
  }
}
