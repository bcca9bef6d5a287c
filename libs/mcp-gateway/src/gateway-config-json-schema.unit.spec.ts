import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { gatewayConfigJsonSchema } from './gateway-config-json-schema.js';
import { loadGatewayConfig } from './load-gateway-config.js';

const onDisk = JSON.parse(
  readFileSync(new URL('../../../docs/schemas/mcp-gateway-config.schema.json', import.meta.url), 'utf8'),
);
const example = JSON.parse(readFileSync(new URL('../../../examples/mcp-gateway.json', import.meta.url), 'utf8'));
const ajv = new Ajv({ strict: true });
// CommonJS default export: the function is on `.default` for TypeScript, either shape at run time.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ??
  addFormatsModule) as typeof addFormatsModule.default;
addFormats(ajv);
const validate = ajv.compile(onDisk);

describe('the MCP gateway config JSON Schema (docs/schemas/mcp-gateway-config.schema.json)', () => {
  it('is what the zod schema generates (run npm run generate:schemas when this fails)', () => {
    expect(onDisk).toEqual(gatewayConfigJsonSchema());
  });

  it('accepts examples/mcp-gateway.json, which the gateway also accepts', () => {
    expect(validate(example), JSON.stringify(validate.errors)).toBe(true);
    const config = loadGatewayConfig(example, {
      TOKENCIRCUIT_API_KEY: 'acme-key-0123456789',
      TICKETS_TOKEN: 't',
      DOCS_MCP_AUTH: 'Bearer d',
    });
    expect(config.servers.map((s) => `${s.name}:${s.transport}`)).toEqual(['tickets:stdio', 'docs:http']);
  });

  it('refuses what the gateway refuses: an unknown field, a bad effect', () => {
    expect(validate({ ...example, extra: true })).toBe(false);
    expect(validate({ ...example, servers: { s: { command: 'x', tools: { t: { effect: 'sometimes' } } } } })).toBe(
      false,
    );
  });
});
