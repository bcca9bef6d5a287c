import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cloudEventToAgentEvent, fromKafkaRecord } from '@tokencircuit/contracts';
import { DEFAULT_CONFIG, type FailureState } from '@tokencircuit/governance';
import { consumeUntil } from '@tokencircuit/testing';
import { ResolutionAcceptedSchema } from '@tokencircuit/api-http';
import { permissionDenied, requested, toolCall } from '@tokencircuit/contracts/testing';
import { ApiHarness } from './support/api-harness.js';
import { seedFromEvents } from './support/seed.js';

describe('POST /v1/resolutions (real Kafka, real Postgres)', () => {
  let api: ApiHarness;
  let acmeBlock: FailureState;
  let globexBlock: FailureState;

  beforeAll(async () => {
    api = await ApiHarness.start();
    const call = toolCall({ principal: 'svc-reporting' });
    acmeBlock = (await seedFromEvents(api.database.pool, [permissionDenied('acme', call)], DEFAULT_CONFIG)).states[0]!;
    globexBlock = (await seedFromEvents(api.database.pool, [permissionDenied('globex', call)], DEFAULT_CONFIG))
      .states[0]!;
  });
  afterAll(async () => {
    await api?.close();
  });

  it('publishes an operator.resolution event (id and time set by the API) and answers 202 with its id', async () => {
    api.now = new Date('2026-01-05T12:00:00.000Z');
    const body = {
      keyId: acmeBlock.keyId,
      resolution: 'auth_granted',
      by: 'alice@acme',
      reason: 'GRANT SELECT ON finance.salaries (CHG-1234)',
    };
    const response = await api.as('acme', '/v1/resolutions', { body });
    expect(response.status).toBe(202);
    const { id, accepted } = ResolutionAcceptedSchema.parse(await response.json());
    expect(accepted).toEqual([id]);

    const received = await consumeUntil(api.topic, (messages) =>
      messages.some((m) => m.headers['ce_id']?.toString() === id),
    );
    const message = received.find((m) => m.headers['ce_id']?.toString() === id)!;
    expect(message.key?.toString()).toBe('acme/*');
    expect(cloudEventToAgentEvent(fromKafkaRecord(message))).toEqual({
      type: 'operator.resolution',
      id,
      tenant: 'acme',
      time: '2026-01-05T12:00:00.000Z',
      data: { ...body, unsafeOverride: false },
    });
  });

  it("answers 404 for another tenant's key and publishes nothing", async () => {
    const body = { keyId: globexBlock.keyId, resolution: 'reset', by: 'mallory@acme', reason: 'unblock a competitor' };
    const response = await api.as('acme', '/v1/resolutions', { body });
    expect(response.status).toBe(404);

    const sentinel = requested('acme');
    expect((await api.as('acme', '/v1/events', { body: sentinel })).status).toBe(202);
    const received = await consumeUntil(api.topic, (messages) =>
      messages.some((m) => m.headers['ce_id']?.toString() === sentinel.id),
    );
    const resolutions = received.filter((m) => m.headers['ce_type']?.toString().includes('operator.resolution'));
    expect(resolutions.map((m) => m.headers['ce_tenantid']?.toString())).toEqual(['acme']);
  });

  it('answers 400 naming the field; tenant, id and time cannot be supplied', async () => {
    const missing = await api.as('acme', '/v1/resolutions', {
      body: { keyId: acmeBlock.keyId, resolution: 'forgive', by: 'a', reason: 'r' },
    });
    expect(missing.status).toBe(400);
    expect(await missing.json()).toMatchObject({ error: 'invalid_field', field: 'resolution' });
    const smuggled = await api.as('acme', '/v1/resolutions', {
      body: { keyId: acmeBlock.keyId, resolution: 'reset', by: 'a', reason: 'r', tenant: 'globex' },
    });
    expect(smuggled.status).toBe(400);
    expect(await smuggled.json()).toMatchObject({ field: 'tenant' });
  });

  it('answers 400 naming the kinds that apply when the resolution means nothing for the key (a permission block is not lifted by "the resource exists")', async () => {
    const response = await api.as('acme', '/v1/resolutions', {
      body: { keyId: acmeBlock.keyId, resolution: 'resource_confirmed', by: 'a', reason: 'it exists' },
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      error: 'not_applicable',
      field: 'resolution',
      message: expect.stringMatching(
        /resource_confirmed does not apply to this permission key .* it takes auth_granted, reset, acknowledged/,
      ),
    });
  });

  it('publishes the resolution redacted: a credential pasted into the reason never reaches the topic', async () => {
    const secret = 'ghp_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789';
    const body = { keyId: acmeBlock.keyId, resolution: 'acknowledged', by: 'bob@acme', reason: `rotated ${secret}` };
    const response = await api.as('acme', '/v1/resolutions', { body });
    expect(response.status).toBe(202);
    const { id } = ResolutionAcceptedSchema.parse(await response.json());
    const received = await consumeUntil(api.topic, (messages) =>
      messages.some((m) => m.headers['ce_id']?.toString() === id),
    );
    const message = received.find((m) => m.headers['ce_id']?.toString() === id)!;
    expect(message.value!.toString()).not.toContain(secret);
    expect(message.value!.toString()).toContain('rotated ');
  });
});
