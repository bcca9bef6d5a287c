import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requested, toolCall } from '@tokencircuit/contracts/testing';
import { ApiHarness } from './support/api-harness.js';

// The harness' clock stands still unless a test moves it, so the buckets refill only when told: no timing.
describe('per-tenant quotas on ingest and preflight (real Kafka, real Postgres)', () => {
  let api: ApiHarness;
  beforeAll(async () => {
    api = await ApiHarness.start({
      metricsTenantLabels: true,
      quotas: {
        API_PREFLIGHT_PER_SECOND: 1,
        API_PREFLIGHT_BURST: 3,
        API_INGEST_EVENTS_PER_SECOND: 100,
        API_INGEST_BURST_EVENTS: 500,
      },
    });
  });
  afterAll(async () => api?.close());

  const preflight = (tenant: 'acme' | 'globex') =>
    api.as(tenant, '/v1/preflight', { body: { call: toolCall({ run: `run-${tenant}` }) } });
  const batch = (tenant: 'acme' | 'globex', size: number, from = 0) => ({
    events: Array.from({ length: size }, (_, i) =>
      requested(tenant, toolCall({ run: `quota-${tenant}`, callId: `c-${from + i}` })),
    ),
  });

  it('a tenant that spends its preflight quota gets 429 with Retry-After; another tenant is still answered', async () => {
    for (let i = 0; i < 3; i++) expect((await preflight('acme')).status).toBe(200);
    const refused = await preflight('acme');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(refused.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await refused.json()).toMatchObject({ error: 'rate_limited', quota: 'preflight', retryAfterSeconds: 1 });

    expect((await preflight('globex')).status).toBe(200);

    // One second later one request's worth is back, and only that.
    api.now = new Date(api.now.getTime() + 1_000);
    expect((await preflight('acme')).status).toBe(200);
    expect((await preflight('acme')).status).toBe(429);
  });

  it('ingest is charged per event: a full batch spends the burst, the next event waits, another tenant gets 202', async () => {
    const full = await api.as('acme', '/v1/events', { body: batch('acme', 500) });
    expect(full.status, await full.clone().text()).toBe(202);

    const refused = await api.as('acme', '/v1/events', { body: batch('acme', 1, 500) });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(await refused.json()).toMatchObject({ error: 'rate_limited', quota: 'ingest' });

    const other = await api.as('globex', '/v1/events', { body: batch('globex', 1) });
    expect(other.status, await other.clone().text()).toBe(202);

    // 100 events/s: 200 events need two seconds of refill.
    api.now = new Date(api.now.getTime() + 1_000);
    const tooMany = await api.as('acme', '/v1/events', { body: batch('acme', 200, 600) });
    expect(tooMany.status).toBe(429);
    expect(tooMany.headers.get('retry-after')).toBe('1');
    api.now = new Date(api.now.getTime() + 1_000);
    expect((await api.as('acme', '/v1/events', { body: batch('acme', 200, 600) })).status).toBe(202);
  });

  it('counts refusals per quota and tenant in /metrics (API_METRICS_TENANT_LABELS=true)', async () => {
    const text = await (await api.request('/metrics')).text();
    expect(text).toMatch(/^tokencircuit_api_quota_refusals_total\{quota="preflight",tenant="acme"\} [1-9]/m);
    expect(text).toMatch(/^tokencircuit_api_quota_refusals_total\{quota="ingest",tenant="acme"\} [1-9]/m);
    expect(text).not.toMatch(/tokencircuit_api_quota_refusals_total\{[^}]*tenant="globex"/);
  });
});

// Issue 28: reads are metered by cost and resolutions are writes; before, both ran unmetered for any tenant.
describe('every route metered per tenant: reads by cost, resolutions as writes (real Kafka, real Postgres)', () => {
  let api: ApiHarness;
  beforeAll(async () => {
    api = await ApiHarness.start({
      quotas: {
        API_INGEST_EVENTS_PER_SECOND: 100,
        API_INGEST_BURST_EVENTS: 500,
        API_READ_UNITS_PER_SECOND: 10,
        API_READ_BURST_UNITS: 150,
      },
    });
  });
  afterAll(async () => api?.close());

  it('a verification page costs by its rows: the second full page waits, another tenant is still answered', async () => {
    // A page of 1,000 rows costs 101 units (1 + 1,000 / 10): one fits the burst of 150, a second does not.
    expect((await api.as('acme', '/v1/audit/verify?limit=1000')).status).toBe(200);
    const refused = await api.as('acme', '/v1/audit/verify?limit=1000');
    expect(refused.status).toBe(429);
    expect(await refused.json()).toMatchObject({ error: 'rate_limited', quota: 'read' });
    // 49 units are left: a cheap read still passes (reads by cost, not by count).
    expect((await api.as('acme', '/v1/audit/verify?limit=10')).status).toBe(200);
    expect((await api.as('globex', '/v1/audit/verify?limit=1000')).status).toBe(200);
    // Every read is metered, not only verification.
    for (let i = 0; i < 50; i++) {
      const response = await api.as('acme', '/v1/state');
      if (response.status === 429) return;
    }
    expect.unreachable('GET /v1/state was never refused with the read quota spent');
  });

  it('with the ingest quota spent, a resolution is refused with 429 too (each one is a stored agent event)', async () => {
    const resolution = { keyId: 'no-such-key', resolution: 'reset', by: 'ops', reason: 'quota spec' };
    // Before: the quota admits it (404: no such key to resolve).
    expect((await api.as('acme', '/v1/resolutions', { body: resolution })).status).toBe(404);
    const full = await api.as('acme', '/v1/events', { body: batch('acme', 499) });
    expect(full.status, await full.clone().text()).toBe(202);
    const refused = await api.as('acme', '/v1/resolutions', { body: resolution });
    expect(refused.status).toBe(429);
    expect(await refused.json()).toMatchObject({ error: 'rate_limited', quota: 'ingest' });
    expect((await api.as('globex', '/v1/resolutions', { body: resolution })).status).toBe(404);
  });
});

function batch(tenant: 'acme' | 'globex', size: number) {
  return {
    events: Array.from({ length: size }, (_, i) =>
      requested(tenant, toolCall({ run: `metered-${tenant}`, callId: `m-${i}` })),
    ),
  };
}
