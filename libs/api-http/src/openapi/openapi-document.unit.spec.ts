import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument, renderOpenApiDocument } from './openapi-document.js';
import { OPENAPI_FILE } from './openapi-file.js';
import * as X from './api-examples.js';
import * as S from './api-schemas.js';

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
      '/v1/dashboard/spend',
      '/v1/events',
      '/v1/integrations/pagerduty',
      '/v1/preflight',
      '/v1/preflight/changes',
      '/v1/resolutions',
      '/v1/state',
      '/v1/state/{keyId}',
      '/v1/traces',
    ]);
    for (const operations of Object.values(paths)) {
      for (const operation of Object.values(operations)) expect(operation.responses).toHaveProperty('401');
    }
  });
});

describe('OpenAPI examples', () => {
  it('are answers the API gives: each parses with the schema its body is validated or served with', () => {
    expect(S.AgentEventSchema.parse(X.EXAMPLE_OUTCOME_EVENT).id).toBe('evt-01J9Z6Q4T7W2');
    expect(S.AcceptedSchema.parse(X.EXAMPLE_ACCEPTED)).toEqual({ accepted: ['evt-01J9Z6Q4T7W2'] });
    S.PreflightRequestSchema.parse({ call: X.EXAMPLE_DENIED_CALL });
    S.PreflightRequestSchema.parse({ call: X.EXAMPLE_ALLOWED_CALL });
    S.PreflightResponseSchema.parse(X.EXAMPLE_PREFLIGHT_DENIED);
    S.PreflightResponseSchema.parse(X.EXAMPLE_PREFLIGHT_ALLOWED);
    S.InterventionPageSchema.parse(X.EXAMPLE_INTERVENTION_PAGE);
    S.FailureStatePageSchema.parse(X.EXAMPLE_STATE_PAGE);
  });

  it('show a denial in words and a realistic version and time, not the schema bounds Swagger UI would invent', () => {
    expect(X.EXAMPLE_PREFLIGHT_DENIED).toMatchObject({
      allow: false,
      reason:
        'principal svc-reporting is blocked fleet-wide on sql_namespace finance.salaries since 2026-03-02T09:00:02.000Z, after 1 permission failure of sql_query (auth scope read:finance): no agent acting as svc-reporting may try until an operator resolves it [key fleet|acme|p=svc-reporting|r=finance.salaries|sql_query|sql_namespace|read:finance|permission|seb=0]',
      decision: { level: 'block', nextAction: 'stop_request_authorization' },
    });
    expect(X.EXAMPLE_PREFLIGHT_ALLOWED).toEqual({
      allow: true,
      reason: 'no failure state at these coordinates',
      decision: null,
      artifact: null,
      budget: null,
      advice: null,
      reuse: { maxAgeMs: 5_000, coordinates: [expect.any(String), expect.any(String)] },
    });
    const [row] = X.EXAMPLE_INTERVENTION_PAGE.items;
    expect(row).toMatchObject({ stateVersion: 1, issuedAt: '2026-03-02T09:00:02.187Z' });
    const { paths } = buildOpenApiDocument() as {
      paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, unknown> }> }>>;
    };
    const served = paths['/v1/preflight']!.post!.responses['200']!.content!['application/json'];
    expect(served).toMatchObject({
      examples: { deny: { value: { allow: false } }, allow: { value: { allow: true } } },
    });
  });
});
