import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { CallToolResultSchema, ToolListChangedNotificationSchema, type Tool } from '@modelcontextprotocol/sdk/types.js';
import type { ResolvedServer, ToolResult } from '@tokencircuit/mcp-gateway';
import { StatedToolFailure } from '@tokencircuit/sdk';
import { LeanHttpClientTransport } from './lean-http-client-transport.js';

/** Pauses before restarting an upstream that died: doubling, capped, reset once it has run a while. */
const BACKOFF_MS = { first: 250, max: 10_000, healthyAfter: 30_000 } as const;

export interface UpstreamStatus {
  readonly name: string;
  readonly state: 'connecting' | 'up' | 'down' | 'closed';
  readonly restarts: number;
  readonly lastError: string | null;
  readonly tools: number;
}

/**
 * One upstream MCP server: its Client, the tools it lists, and restarts with backoff when a stdio upstream
 * dies. A call in flight when it dies is rejected by the SDK with ConnectionClosed (the request left: the
 * outcome is unknown); a call while it is down never leaves (StatedToolFailure, requestSent false).
 */
export class UpstreamConnection {
  private client: Client | null = null;
  private state: UpstreamStatus['state'] = 'connecting';
  private restarts = 0;
  private lastError: string | null = null;
  private backoffMs: number = BACKOFF_MS.first;
  private upSince = 0;
  private retryTimer: NodeJS.Timeout | null = null;
  private closed = false;
  private listed: readonly Tool[] = [];

  constructor(
    readonly server: ResolvedServer,
    private readonly onToolsChanged: () => void,
    private readonly log: (line: string) => void,
  ) {}

  /** The last tools the upstream listed (kept while it restarts, so names do not vanish). */
  get tools(): readonly Tool[] {
    return this.listed;
  }

  status(): UpstreamStatus {
    return {
      name: this.server.name,
      state: this.state,
      restarts: this.restarts,
      lastError: this.lastError,
      tools: this.listed.length,
    };
  }

  /** Connects once; on failure it keeps retrying in the background and resolves false. */
  async start(): Promise<boolean> {
    try {
      await this.connect();
      return true;
    } catch (error) {
      this.fail(error);
      return false;
    }
  }

  /** Calls one tool upstream; throws StatedToolFailure (not sent) while the upstream is not connected. */
  async call(tool: string, args: Record<string, unknown>, signal?: AbortSignal): Promise<ToolResult> {
    const client = this.client;
    if (client === null || this.state !== 'up') {
      throw new StatedToolFailure(
        `upstream MCP server ${this.server.name} is not connected (${this.lastError ?? this.state}); the call was not sent`,
        { answered: false },
      );
    }
    // Low-level request, not client.callTool: the gateway passes results through as the upstream sent them,
    // without the client's own output-schema check standing in for the upstream's answer.
    const result = await client.request(
      { method: 'tools/call', params: { name: tool, arguments: args } },
      CallToolResultSchema,
      {
        timeout: this.server.timeoutMs,
        ...(signal === undefined ? {} : { signal }),
      },
    );
    return result as ToolResult;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.state = 'closed';
    if (this.retryTimer !== null) clearTimeout(this.retryTimer);
    const client = this.client;
    this.client = null;
    await client?.close().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    this.state = 'connecting';
    const client = new Client({ name: 'tokencircuit-mcp-gateway', version: '1.0.0' });
    client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
      await this.refreshTools(client).catch((error: unknown) =>
        this.log(`${this.server.name}: tools/list failed: ${String(error)}`),
      );
    });
    client.onclose = () => {
      if (this.client !== client || this.closed) return;
      this.client = null;
      this.fail(new Error('the upstream connection closed'));
    };
    try {
      await client.connect(this.transport());
      this.client = client;
      await this.refreshTools(client);
    } catch (error) {
      this.client = null;
      await client.close().catch(() => undefined);
      throw error;
    }
    this.state = 'up';
    this.upSince = Date.now();
    this.log(`${this.server.name}: connected (${this.listed.length} tools)`);
  }

  private transport(): Transport {
    const server = this.server;
    if (server.transport === 'http') {
      // tools/call over node:http, everything else through the SDK's own transport (lean-http-client-transport.ts).
      return new LeanHttpClientTransport(new URL(server.url), { ...server.headers });
    }
    return new StdioClientTransport({
      command: server.command,
      args: [...server.args],
      env: { ...stringEnv(process.env), ...server.env },
      ...(server.cwd === null ? {} : { cwd: server.cwd }),
      // The gateway's own stdout is the MCP channel toward the agent; an upstream's stderr goes to ours.
      stderr: 'inherit',
    });
  }

  private async refreshTools(client: Client): Promise<void> {
    const tools: Tool[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor === undefined ? {} : { cursor });
      tools.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    const changed = JSON.stringify(tools) !== JSON.stringify(this.listed);
    this.listed = tools;
    if (changed) this.onToolsChanged();
  }

  private fail(error: unknown): void {
    if (this.closed) return;
    this.state = 'down';
    this.lastError = error instanceof Error ? error.message : String(error);
    if (this.upSince > 0 && Date.now() - this.upSince > BACKOFF_MS.healthyAfter) this.backoffMs = BACKOFF_MS.first;
    const wait = this.backoffMs;
    this.backoffMs = Math.min(BACKOFF_MS.max, this.backoffMs * 2);
    this.log(`${this.server.name}: ${this.lastError}; reconnecting in ${wait} ms`);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      if (this.closed) return;
      this.restarts++;
      this.connect().catch((next: unknown) => this.fail(next));
    }, wait);
    this.retryTimer.unref();
  }
}

const stringEnv = (env: NodeJS.ProcessEnv): Record<string, string> =>
  Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined));
