// Writes docs/schemas/*.schema.json from the zod contracts (the single source), formatted by Prettier so
// format:check stays green. The contracts unit spec fails when the checked-in files drift from the zod schemas.
// Run: npm run generate:schemas
import { readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { format, resolveConfig } from 'prettier';
import { contractJsonSchemas } from '@tokencircuit/contracts';
import { policyJsonSchema } from '@tokencircuit/governance';
import { notifyConfigJsonSchema } from '@tokencircuit/notifier';
import { gatewayConfigJsonSchema } from '@tokencircuit/mcp-gateway';

const outDir = fileURLToPath(new URL('../docs/schemas/', import.meta.url));

// The policy file's schema comes from the core's config schema, beside the event contracts.
const schemas = [
  ...contractJsonSchemas(),
  { fileName: 'policy.schema.json', schema: policyJsonSchema() },
  // The notifier's routing file (TOKENCIRCUIT_NOTIFY_FILE), from libs/notifier's zod schema.
  { fileName: 'notify-config.schema.json', schema: notifyConfigJsonSchema() },
  // The MCP gateway's config file (tokencircuit mcp --config FILE), from libs/mcp-gateway's zod schema.
  { fileName: 'mcp-gateway-config.schema.json', schema: gatewayConfigJsonSchema() },
];
const wanted = new Set(schemas.map((s) => s.fileName));
for (const { fileName, schema } of schemas) {
  const path = join(outDir, fileName);
  const options = (await resolveConfig(path)) ?? {};
  await writeFile(path, await format(JSON.stringify(schema), { ...options, filepath: path }), 'utf8');
}
// A schema that is no longer generated must not linger as if it were still a contract.
for (const file of await readdir(outDir)) {
  if (file.endsWith('.schema.json') && !wanted.has(file)) await rm(join(outDir, file));
}
console.log(`wrote ${schemas.length} JSON Schemas to ${outDir}`);
