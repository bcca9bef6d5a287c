import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import type { ResolvedGatewayConfig } from '@tokencircuit/mcp-gateway';
import { governedCall } from '../governance/governed-call.js';
import type { SessionGovernance } from '../governance/session-governance.js';
import type { UpstreamPool } from '../upstream/upstream-pool.js';

// One validator for every server this process builds: stateless HTTP builds a server per request, and a
// validator of its own (a new Ajv instance) per server cost more CPU than the governed call itself.
const sharedValidator = new AjvJsonSchemaValidator();

/**
 * The MCP server the agent talks to, for one downstream session (stdio) or one request (stateless HTTP):
 * tools/list is every upstream's tools renamed SERVER__TOOL with their schemas and annotations, tools/call
 * is governed. `session` is asked for on the first call only, so listing tools costs the backend nothing.
 */
export function gatewayServer(
  config: ResolvedGatewayConfig,
  pool: UpstreamPool,
  session: () => Promise<SessionGovernance>,
  log: (line: string) => void,
): Server {
  const server = new Server(
    { name: 'tokencircuit-mcp-gateway', version: '1.0.0' },
    {
      capabilities: { tools: { listChanged: true } },
      jsonSchemaValidator: sharedValidator,
      instructions:
        'Tools of several MCP servers, named SERVER__TOOL, governed by TokenCircuit: a call it stops comes back ' +
        'as an error result saying why and what to do instead.',
    },
  );
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: pool.tools().map(({ name, tool }) => ({ ...tool, name })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    const { name } = request.params;
    const tool = pool.resolve(name);
    if (tool === null) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${name}`);
    const args = (request.params.arguments ?? {}) as Record<string, unknown>;
    return (await governedCall(config, await session(), tool, args, log)) as CallToolResult;
  });
  return server;
}
