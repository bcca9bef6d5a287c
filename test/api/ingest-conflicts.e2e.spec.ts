import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { INestApplication } from '@nestjs/common';
import { permissionDenied, toolCall } from '@tokencircuit/contracts/testing';
import { createTopic, randomGroupId, randomTopic } from '@tokencircuit/testing';
import { startProjectorInProcess, waitUntilCaughtUp } from '../projector/support/projector-harness.js';
import { ApiHarness } from './support/api-harness.js';

/**
 * Issue 28: a second body under a known event id was answered 202 and silently dropped. An id is unique
 * within its source (CloudEvents): the same id from another agent is another event, the same body again
 * is a retry (202), another body is a 409 naming the stored event's digest, and nothing of its batch is
 * published (real API, real Kafka, the real projector, real Postgres).
 */
describe('POST /v1/events with a known event id (real Kafka, real Postgres)', () => {
  let api: ApiHarness;
  let projector: INestApplication | undefined;
  let target: Parameters<typeof startProjectorInProcess>[0];
  const call = toolCall({ agent: 'agent-a', run: 'run-conflict' });
  const original = permissionDenied('acme', call);

  beforeAll(async () => {
    api = await ApiHarness.start();
    target = {
      databaseUrl: api.database.url,
      topic: api.topic,
      dlqTopic: await createTopic(randomTopic('ingest-conflicts-dlq'), 1),
      groupId: randomGroupId('ingest-conflicts'),
    };
    projector = await startProjectorInProcess(target);
    expect((await api.as('acme', '/v1/events', { body: original })).status).toBe(202);
    await waitUntilCaughtUp(api.database.pool, target);
  }, 180_000);
  afterAll(async () => {
    await projector?.close();
    await api?.close();
  });

  const storedDigests = async (id: string) => {
    const { rows } = await api.database.pool.query<{ source: string; digest: string }>(
      `SELECT source, tokencircuit_event_digest(tokencircuit_cloud_event(agent_events)) AS digest FROM agent_events
        WHERE tenant = 'acme' AND id = $1 ORDER BY seq`,
      [id],
    );
    return rows;
  };

  it('answers 409 with the stored digest for another body under the same id and source; the stored event stands', async () => {
    const [stored] = await storedDigests(original.id!);
    const changed = { ...original, time: '2026-01-05T10:00:02.000Z' };
    const response = await api.as('acme', '/v1/events', { body: changed });
    expect(response.status).toBe(409);
    expect(await response.json()).toEqual({
      error: 'conflict',
      message: expect.stringContaining(stored!.digest),
      field: 'id',
      index: null,
      storedDigest: stored!.digest,
    });
    await waitUntilCaughtUp(api.database.pool, target);
    expect(await storedDigests(original.id!)).toEqual([stored]);
  });

  it('names the event in a batch and publishes none of it', async () => {
    const fresh = permissionDenied('acme', toolCall({ agent: 'agent-a', run: 'run-conflict-2' }));
    const changed = { ...original, time: '2026-01-05T10:00:03.000Z' };
    const response = await api.as('acme', '/v1/events', { body: { events: [fresh, changed] } });
    expect(response.status).toBe(409);
    expect(await response.json()).toMatchObject({ error: 'conflict', index: 1, message: /^events\[1\]: id: / });
    await waitUntilCaughtUp(api.database.pool, target);
    expect(await storedDigests(fresh.id!)).toEqual([]);
  });

  it('accepts the same body again (a retry) and the same id from another agent (another source)', async () => {
    expect((await api.as('acme', '/v1/events', { body: original })).status).toBe(202);
    const twin = { ...permissionDenied('acme', { ...call, agent: 'agent-b' }), id: original.id };
    expect((await api.as('acme', '/v1/events', { body: twin })).status).toBe(202);
    await waitUntilCaughtUp(api.database.pool, target);
    expect((await storedDigests(original.id!)).map((r) => r.source)).toEqual([
      '/tenants/acme/agents/agent-a',
      '/tenants/acme/agents/agent-b',
    ]);
  });
});
