import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiHarness, KEYS } from './support/api-harness.js';

// Each of these answered 500 (issue 10): input Postgres refuses must be the client's 4xx, never a 5xx.
describe('client input never gets a 5xx (real Kafka, real Postgres)', () => {
  let api: ApiHarness;
  beforeAll(async () => {
    api = await ApiHarness.start();
  });
  afterAll(async () => api?.close());

  const cases: [string, string, unknown?][] = [
    ['GET', '/v1/interventions?from=0000-01-01T00:00:00Z'],
    ['GET', '/v1/interventions?principal=svc%00bot'],
    ['GET', '/v1/interventions/abc%00def'],
    ['POST', '/v1/preflight', { agent: 'a\u0000', run: 'r', tool: 't\u0000', principal: 'p\u0000' }],
    ['GET', '/docs/..%2f..%2f..%2fetc%2fpasswd'],
    ['GET', '/docs/%2e%2e/%2e%2e/package.json'],
    ['GET', '/docs/%00'],
    // Found by the OpenAPI fuzz (openapi-fuzz.e2e.spec.ts): @fastify/static's 403 for a path outside its root,
    // and U+0000 in a resolution's key id, both answered 500.
    ['GET', '/docs//example.com'],
    ['GET', '/dashboard///example.com'],
    ['GET', '/dashboard/assets//etc/passwd'],
    ['HEAD', '/dashboard/%5C'],
    ['POST', '/v1/resolutions', { keyId: 'k\u0000', resolution: 'acknowledged', by: 'ops', reason: 'r' }],
    ['POST', '/v1/resolutions', { keyId: 'k\ud800', resolution: 'acknowledged', by: 'ops', reason: 'r' }],
  ];

  it.each(cases)('%s %s answers a 4xx JSON error', async (method, path, body) => {
    const response = await api.request(path, { key: KEYS.acme, method, ...(body === undefined ? {} : { body }) });
    expect(response.status, await response.clone().text()).toBeGreaterThanOrEqual(400);
    expect(response.status).toBeLessThan(500);
    if (method !== 'HEAD') expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  });
});
