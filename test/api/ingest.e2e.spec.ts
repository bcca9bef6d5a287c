import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  cloudEventToAgentEvent,
  fromKafkaRecord,
  LIMITS,
  parseAgentEvent,
  type AgentEventInput,
} from '@tokencircuit/contracts';
import { consumeUntil, type ReceivedMessage } from '@tokencircuit/testing';
import { permissionDenied, requested, toolCall } from '@tokencircuit/contracts/testing';
import { AcceptedSchema, ErrorSchema } from '@tokencircuit/api-http';
import { ApiHarness, KEYS } from './support/api-harness.js';

const idOf = (message: ReceivedMessage): string | undefined => message.headers['ce_id']?.toString();

describe('POST /v1/events (real Kafka, real Postgres)', () => {
  let api: ApiHarness;

  beforeAll(async () => {
    api = await ApiHarness.start({ maxBodyBytes: 256 * 1024 });
  });
  afterAll(async () => {
    await api?.close();
  });

  /** Consumes the harness topic until the events with these ids arrived; returns every message read. */
  const consumeIds = (ids: readonly string[]) =>
    consumeUntil(api.topic, (received) => ids.every((id) => received.some((m) => idOf(m) === id)), {
      name: `events ${ids.join(', ')}`,
    });

  it('answers 202 with the id once the broker has the event: a binary CloudEvent keyed tenant/run', async () => {
    const event = requested('acme', toolCall({ run: 'run-ingest-1' }));
    const response = await api.as('acme', '/v1/events', { body: event });
    expect(response.status).toBe(202);
    expect(AcceptedSchema.parse(await response.json())).toEqual({ accepted: [event.id] });

    const received = await consumeIds([event.id]);
    const message = received.find((m) => idOf(m) === event.id)!;
    expect(message.key?.toString()).toBe('acme/run-ingest-1');
    expect(message.headers['ce_specversion']?.toString()).toBe('1.0');
    expect(message.headers['ce_type']?.toString()).toBe('dev.tokencircuit.tool_call.requested.v1');
    expect(message.headers['ce_tenantid']?.toString()).toBe('acme');
    expect(message.headers['content-type']?.toString()).toBe('application/json');
    const decoded = cloudEventToAgentEvent(
      fromKafkaRecord({ key: message.key, value: message.value, headers: message.headers }),
    );
    expect(decoded).toEqual(parseAgentEvent(event));
  });

  it('publishes a batch in order and accepts every id', async () => {
    const call = toolCall({ run: 'run-ingest-batch' });
    const batch = [
      requested('acme', call),
      permissionDenied('acme', call),
      requested('acme', toolCall({ run: 'run-ingest-batch' })),
    ];
    const response = await api.as('acme', '/v1/events', { body: { events: batch } });
    expect(response.status).toBe(202);
    expect(await response.json()).toEqual({ accepted: batch.map((e) => e.id) });

    const received = await consumeIds(batch.map((e) => e.id));
    const order = received.map(idOf).filter((id) => batch.some((e) => e.id === id));
    expect(order).toEqual(batch.map((e) => e.id));
  });

  it('answers 400 naming the field (and the index in a batch); nothing is published', async () => {
    const bad = requested('acme', toolCall({ attempt: 0 }));
    const good = requested('acme');
    const response = await api.as('acme', '/v1/events', { body: { events: [good, bad] } });
    expect(response.status).toBe(400);
    expect(ErrorSchema.parse(await response.json())).toMatchObject({
      error: 'invalid_field',
      field: 'data.call.attempt',
      index: 1,
    });

    const single = await api.as('acme', '/v1/events', { body: { ...requested('acme'), type: 'tool_call.exploded' } });
    expect(single.status).toBe(400);
    expect(await single.json()).toMatchObject({ error: 'invalid_field', field: 'type', index: null });

    const notJson = await api.as('acme', '/v1/events', { rawBody: '{"type": "tool_call.requested",' });
    expect(notJson.status).toBe(400);
    expect(await notJson.json()).toMatchObject({ error: 'invalid_json', field: '(body)' });

    await expectNotPublished([good.id, bad.id]);
  });

  it('answers 413 as JSON for a body above the cap, and for one event above 64 KiB', async () => {
    const filler = 'x'.repeat(4096);
    const events: AgentEventInput[] = Array.from({ length: 80 }, () =>
      requested('acme', toolCall({ arguments: { filler } })),
    );
    const tooBig = await api.as('acme', '/v1/events', { body: { events } });
    expect(tooBig.status).toBe(413);
    expect(tooBig.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await tooBig.json()).toMatchObject({ error: 'payload_too_large' });

    // Within the body cap, but one event alone is above LIMITS.eventBytes.
    const bloated = { ...permissionDenied('acme'), padding: 'p'.repeat(LIMITS.eventBytes) };
    const perEvent = await api.as('acme', '/v1/events', { body: { events: [requested('acme'), bloated] } });
    expect(perEvent.status).toBe(413);
    expect(await perEvent.json()).toMatchObject({ error: 'payload_too_large', index: 1 });
  });

  it('answers 413 as JSON for a chunked body (no content-length) once it passes the cap', async () => {
    const chunk = new TextEncoder().encode(`{"padding":"${'p'.repeat(64 * 1024)}`);
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 5; i++) controller.enqueue(chunk); // 320 KiB > the 256 KiB cap
        controller.close();
      },
    });
    const response = await fetch(`${api.baseUrl}/v1/events`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${KEYS.acme}` },
      body,
      duplex: 'half',
    } as RequestInit);
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ error: 'payload_too_large' });
  });

  it('answers 401 without a key, with an unknown key, and with another scheme; the body is not even read', async () => {
    const event = requested('acme');
    const refused: Array<Record<string, string>> = [
      {},
      { authorization: 'Bearer not-a-key-of-anyone-0000' },
      { authorization: `Basic ${KEYS.acme}` },
      { 'x-api-key': 'nope-nope-nope-nope' },
    ];
    for (const headers of refused) {
      const response = await api.request('/v1/events', { body: event, headers });
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe('Bearer');
      expect(await response.json()).toMatchObject({ error: 'unauthenticated' });
    }
    const viaHeader = await api.request('/v1/events', { body: requested('acme'), headers: { 'x-api-key': KEYS.acme } });
    expect(viaHeader.status).toBe(202);
    const garbage = await api.request('/v1/events', {
      rawBody: 'not json at all',
      headers: { authorization: 'Bearer wrong-key-wrong-key' },
    });
    expect(garbage.status).toBe(401);
    await expectNotPublished([event.id]);
  });

  it('answers 403 tenant_mismatch when any event names another tenant, and publishes none of the batch', async () => {
    const mine = requested('acme');
    const theirs = requested('globex');
    const response = await api.as('acme', '/v1/events', { body: { events: [mine, theirs] } });
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ error: 'tenant_mismatch', field: 'tenant', index: 1 });

    const single = await api.as('globex', '/v1/events', { body: requested('acme') });
    expect(single.status).toBe(403);
    await expectNotPublished([mine.id, theirs.id]);
  });

  it('answers 415 for a body that is not sent as JSON', async () => {
    const response = await api.as('acme', '/v1/events', {
      rawBody: JSON.stringify(requested('acme')),
      headers: { 'content-type': 'text/plain' },
    });
    expect(response.status).toBe(415);
    expect(await response.json()).toMatchObject({ error: 'unsupported_media_type' });
  });

  it('counts accepted events by type and requests by route and status', async () => {
    const metrics = await (await api.request('/metrics')).text();
    expect(metrics).toMatch(/tokencircuit_api_ingested_events_total\{type="tool_call.outcome"\} 1/);
    expect(metrics).toMatch(/tokencircuit_api_requests_total\{route="\/v1\/events",method="POST",status="202"\} \d+/);
    expect(metrics).toMatch(/tokencircuit_api_requests_total\{route="\/v1\/events",method="POST",status="401"\} \d+/);
  });

  /** Publishes a sentinel after the refused requests and reads up to it: on one partition, order is total. */
  async function expectNotPublished(ids: readonly string[]): Promise<void> {
    const sentinel = requested('acme');
    expect((await api.as('acme', '/v1/events', { body: sentinel })).status).toBe(202);
    const received = await consumeIds([sentinel.id]);
    expect(received.map(idOf).filter((id) => ids.includes(id!))).toEqual([]);
  }
});
