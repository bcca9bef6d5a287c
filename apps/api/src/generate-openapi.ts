// Writes docs/openapi.json; run by `npm run generate:openapi`. A unit spec fails when the file is stale.
import { writeFileSync } from 'node:fs';
import { OPENAPI_FILE, renderOpenApiDocument } from '@tokencircuit/api-http';

writeFileSync(OPENAPI_FILE, await renderOpenApiDocument(OPENAPI_FILE), 'utf8');
process.stdout.write(`wrote ${OPENAPI_FILE}\n`);
