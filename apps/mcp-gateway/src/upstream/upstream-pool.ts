import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { qualifiedToolName, splitToolName, type ResolvedServer } from '@tokencircuit/mcp-gateway';
import { UpstreamConnection, type UpstreamStatus } from './upstream-connection.js';

/** An upstream tool as the agent sees it: renamed SERVER__TOOL, schemas and annotations as the upstream gave them. */
export interface GatewayTool {
  readonly name: string;
  readonly server: UpstreamConnection;
  readonly upstreamName: string;
  readonly tool: Tool;
}

/** Every upstream of one gateway process, shared by all downstream sessions. */
export class UpstreamPool {
  private readonly connections = new Map<string, UpstreamConnection>();
  private readonly listeners = new Set<() => void>();

  constructor(servers: readonly ResolvedServer[], log: (line: string) => void) {
    for (const server of servers) {
      this.connections.set(
        server.name,
        new UpstreamConnection(
          server,
          () => this.toolsChanged(),
          (line) => log(`upstream ${line}`),
        ),
      );
    }
  }

  /** Connects every upstream; one that cannot be reached yet keeps retrying and does not stop the others. */
  async start(): Promise<void> {
    await Promise.all([...this.connections.values()].map((connection) => connection.start()));
  }

  /** Called when any upstream's tool list changed (to forward notifications/tools/list_changed). */
  onToolsChanged(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  tools(): GatewayTool[] {
    const all: GatewayTool[] = [];
    for (const connection of this.connections.values()) {
      for (const tool of connection.tools) {
        all.push({
          name: qualifiedToolName(connection.server.name, tool.name),
          server: connection,
          upstreamName: tool.name,
          tool,
        });
      }
    }
    return all;
  }

  /** The tool behind SERVER__TOOL: null for a name of no configured server; a server's unlisted tool is still routed. */
  resolve(name: string): GatewayTool | null {
    const parts = splitToolName(name);
    const connection = parts === null ? undefined : this.connections.get(parts.server);
    if (parts === null || connection === undefined) return null;
    const tool = connection.tools.find((t) => t.name === parts.tool);
    return tool === undefined ? null : { name, server: connection, upstreamName: parts.tool, tool };
  }

  status(): UpstreamStatus[] {
    return [...this.connections.values()].map((connection) => connection.status());
  }

  async close(): Promise<void> {
    await Promise.all([...this.connections.values()].map((connection) => connection.close()));
  }

  private toolsChanged(): void {
    for (const listener of this.listeners) listener();
  }
}
