import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomTopic } from '@tokencircuit/testing';
import { buildOpenApiDocument } from '@tokencircuit/api-http';
import { requested } from '@tokencircuit/contracts/testing';
import { ApiHarness } from './support/api-harness.js';

describe('HTTP surface: docs, health, errors (real Kafka, real Postgres)', () => {
  let api: ApiHarness;

  beforeAll(async () => {
    // A topic the broker does not have (auto-creation is off for the API's producer): no event can be acknowledged.
    api = await ApiHarness.start({ topic: randomTopic('api-missing-topic') });
  });
  afterAll(async () => {
    await api?.close();
  });

  it('serves Swagger UI at /docs and the generated OpenAPI document at /docs/openapi.json, without a key', async () => {
    const ui = await api.request('/docs');
    expect(ui.status).toBe(200);
    expect(await ui.text()).toMatch(/swagger-ui/i);
    const document = await api.request('/docs/openapi.json');
    expect(document.status).toBe(200);
    expect(await document.json()).toEqual(buildOpenApiDocument());
  });

  it('answers liveness and readiness (the database answers)', async () => {
    expect(await (await api.request('/health/live')).json()).toEqual({ status: 'ok' });
    expect(await (await api.request('/health/ready')).json()).toEqual({ ready: true, database: true });
  });

  it('answers unknown routes with a JSON 404', async () => {
    const response = await api.request('/v2/nothing');
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ error: 'not_found' });
    // Counted under one label, not one per path a scanner tries.
    const metrics = await (await api.request('/metrics')).text();
    expect(metrics).toMatch(/tokencircuit_api_requests_total\{route="unmatched",method="GET",status="404"\} 1/);
  });

  it('answers 503 publish_failed, never 202, when the broker does not acknowledge the events', async () => {
    const response = await api.as('acme', '/v1/events', { body: requested('acme') });
    expect(response.status).toBe(503);
    expect(await response.json()).toMatchObject({ error: 'publish_failed' });
  });
});
