import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument, renderOpenApiDocument } from './openapi-document.js';
import { OPENAPI_FILE } from './openapi-file.js';

describe('OpenAPI document', () => {
  it('is checked in up to date (run `npm run generate:openapi` after changing a schema)', async () => {
    expect(readFileSync(OPENAPI_FILE, 'utf8')).toBe(await renderOpenApiDocument(OPENAPI_FILE));
  });

  it('is OpenAPI 3.1 and every $ref resolves to a component', () => {
    const document = buildOpenApiDocument() as { openapi: string; components: { schemas: Record<string, unknown> } };
    expect(document.openapi).toBe('3.1.0');
    const refs = [...JSON.stringify(document).matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)].map((m) => m[1]!);
    expect(refs.length).toBeGreaterThan(10);
    for (const name of new Set(refs)) expect(document.components.schemas, name).toHaveProperty(name);
  });

  it('documents every route the API serves, each with its error responses', () => {
    const { paths } = buildOpenApiDocument() as {
      paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
    };
    expect(Object.keys(paths).sort()).toEqual([
      '/v1/audit/interventions',
      '/v1/audit/interventions/{id}',
      '/v1/audit/verify',
      '/v1/dashboard/fleet',
      '/v1/dashboard/live',
      '/v1/dashboard/login-tokens',
      '/v1/dashboard/runs/{run}',
      '/v1/dashboard/session',
      '/v1/events',
      '/v1/integrations/pagerduty',
      '/v1/preflight',
      '/v1/resolutions',
      '/v1/state',
      '/v1/state/{keyId}',
    ]);
    for (const operations of Object.values(paths)) {
      for (const operation of Object.values(operations)) expect(operation.responses).toHaveProperty('401');
    }
  });
});
