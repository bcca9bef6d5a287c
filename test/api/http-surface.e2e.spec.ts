import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomTopic } from '@tokencircuit/testing';
import { buildOpenApiDocument } from '@tokencircuit/api-http';
import { requested } from '@tokencircuit/contracts/testing';
import { connect } from 'node:net';
import { ApiHarness, KEYS } from './support/api-harness.js';

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

// Issue 28: slow headers were timed out (Node's headersTimeout) but a body trickled byte by byte never was.
describe('HTTP surface: a request body that never finishes arriving (real API)', () => {
  let api: ApiHarness;
  beforeAll(async () => {
    api = await ApiHarness.start({ quotas: { API_REQUEST_TIMEOUT_MS: 1_000 } });
  });
  afterAll(async () => api?.close());

  it('answers 408 and closes the connection once the request timeout passes, whatever was sent so far', async () => {
    const { port } = new URL(api.baseUrl);
    const socket = connect(Number(port), '127.0.0.1');
    const answer = new Promise<string>((resolve, reject) => {
      let text = '';
      socket.on('data', (chunk) => (text += chunk.toString('latin1')));
      socket.on('close', () => resolve(text));
      socket.on('error', reject);
    });
    socket.write(
      'POST /v1/events HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n' +
        `Authorization: Bearer ${KEYS.acme}\r\nContent-Length: 100000\r\n\r\n{"events":[`,
    );
    // Keep trickling a byte now and then, as a slow-body attacker would, until the server hangs up.
    const trickle = setInterval(() => socket.writable && socket.write(' '), 200);
    try {
      expect(await answer).toMatch(/^HTTP\/1\.1 408 /);
    } finally {
      clearInterval(trickle);
      socket.destroy();
    }
  });
});
