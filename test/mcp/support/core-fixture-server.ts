/**
 * A minimal upstream MCP server (stdio) for the gateway's own e2e spec (test/mcp/gateway-core.e2e.spec.ts):
 * a read refused with HTTP 403 text, an echo, a write that applies and then answers too late, with its
 * read, and a write during which the server process dies. Every call that reaches it is appended to $CORE_FIXTURE_CALLS (one JSON line), so a spec counts
 * what was forwarded at the upstream itself. Started with `node --import <tsx loader> core-fixture-server.ts`.
 */
import { appendFileSync } from 'node:fs';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';

const callsFile = process.env.CORE_FIXTURE_CALLS;
const notes = new Map<string, { id: string; text: string }>();
let lateTool = false;
const text = (value: unknown, isError = false): CallToolResult => ({
  content: [{ type: 'text', text: typeof value === 'string' ? value : JSON.stringify(value) }],
  isError,
});
const object = (properties: Record<string, { type: string }>) => ({
  type: 'object' as const,
  properties,
  required: Object.keys(properties),
});

const server = new Server(
  { name: 'core-fixture', version: '1.0.0' },
  { capabilities: { tools: { listChanged: true } } },
);
server.setRequestHandler(ListToolsRequestSchema, async () => ({
  tools: [
    {
      name: 'read_report',
      description: 'Reads a report (the service account is never allowed to).',
      inputSchema: object({ report: { type: 'string' } }),
      annotations: { readOnlyHint: true },
    },
    { name: 'echo', description: 'Echoes its text.', inputSchema: object({ text: { type: 'string' } }) },
    {
      name: 'create_note',
      description: 'Creates a note, then answers after 3 s.',
      inputSchema: object({ id: { type: 'string' }, text: { type: 'string' } }),
      annotations: { readOnlyHint: false, idempotentHint: false },
    },
    {
      name: 'crash_note',
      description: 'Starts writing a note, then the server process dies before it answers.',
      inputSchema: object({ id: { type: 'string' } }),
    },
    {
      name: 'enable_late_tool',
      description: 'Adds late_tool to the list and says so (notifications/tools/list_changed).',
      inputSchema: object({}),
    },
    ...(lateTool
      ? [{ name: 'late_tool', description: 'Listed only after enable_late_tool.', inputSchema: object({}) }]
      : []),
    {
      name: 'get_note',
      description: 'Reads a note by id.',
      inputSchema: object({ id: { type: 'string' } }),
      annotations: { readOnlyHint: true },
    },
  ],
}));
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const args = (request.params.arguments ?? {}) as Record<string, string>;
  if (callsFile !== undefined) appendFileSync(callsFile, `${JSON.stringify({ tool: request.params.name, args })}\n`);
  switch (request.params.name) {
    case 'read_report':
      return text(`HTTP 403 Forbidden: svc-reports may not read report ${args.report}`, true);
    case 'echo':
      return text({ echoed: args.text });
    case 'create_note':
      notes.set(args.id!, { id: args.id!, text: args.text! });
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      return text({ id: args.id, created: true });
    case 'crash_note':
      setTimeout(() => process.exit(1), 100);
      return new Promise<CallToolResult>(() => undefined);
    case 'enable_late_tool':
      lateTool = true;
      await server.sendToolListChanged();
      return text('late_tool is listed now');
    case 'late_tool':
      return text('late');
    case 'get_note': {
      const note = notes.get(args.id!);
      return note === undefined ? text({ error: 'not found' }, true) : text(note);
    }
    default:
      return text(`unknown tool ${request.params.name}`, true);
  }
});
await server.connect(new StdioServerTransport());
