import { z } from 'zod';
import { GatewayConfigSchema } from './gateway-config.js';

/**
 * The JSON Schema of the gateway's config file (docs/schemas/mcp-gateway-config.schema.json), generated from
 * the zod schema the gateway validates with. That a server has exactly one of command and url, and that a
 * read has nothing to reconcile, are checked at start too (tokencircuit mcp check FILE).
 */
export function gatewayConfigJsonSchema(): Record<string, unknown> {
  const { $schema, ...body } = z.toJSONSchema(GatewayConfigSchema, {
    io: 'input',
    target: 'draft-07',
    unrepresentable: 'throw',
  });
  return {
    $schema,
    title: 'TokenCircuitMcpGatewayConfig',
    description:
      'The MCP gateway config (npx tokencircuit mcp --config FILE): who the agent is, the TokenCircuit backend, ' +
      'and the upstream MCP servers (stdio command or Streamable HTTP url) with what each tool declares ' +
      '(effect, resource, idempotency key, provider, reconcile). Secrets may be given as { "env": "VARIABLE" }.',
    ...body,
  };
}
