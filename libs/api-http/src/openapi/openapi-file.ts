import { fileURLToPath } from 'node:url';

/** Where the generated OpenAPI document is checked in. */
export const OPENAPI_FILE = fileURLToPath(new URL('../../../../docs/openapi.json', import.meta.url));
