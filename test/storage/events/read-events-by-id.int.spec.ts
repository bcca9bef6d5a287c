import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@tokencircuit/testing';
import { insertAgentEvent, readAs } from '../../../libs/storage/src/spec-support/read-fixtures.js';
import { readEventsById } from '../../../libs/storage/src/events/read-events-by-id.js';

describe('readEventsById', () => {
  let db: TestDatabase;
  const read = (tenant: string, asked: string, ids: string[]) =>
    readAs(db.pool, tenant, (s) => readEventsById(s, asked, ids));

  beforeAll(async () => {
    db = await createTestDatabase('tc_read_events_by_id');
    await insertAgentEvent(db.pool, {
      tenant: 'tenant-a',
      id: 'e-late',
      occurredAt: new Date('2026-03-04T05:07:00Z'),
      kafkaTopic: 'agent-events',
      kafkaPartition: 3,
      // Beyond 2^53: the offset must come back exact.
      kafkaOffset: 9007199254740993n,
    });
    await insertAgentEvent(db.pool, {
      tenant: 'tenant-a',
      id: 'e-early',
      occurredAt: new Date('2026-03-04T05:01:00Z'),
    });
    // The same event id in another tenant is another event.
    await insertAgentEvent(db.pool, {
      tenant: 'tenant-b',
      id: 'e-early',
      occurredAt: new Date('2026-03-04T05:00:00Z'),
    });
  });
  afterAll(async () => {
    await db?.drop();
  });

  it('reads the named events oldest first, with their Kafka position when they came over Kafka', async () => {
    const events = await read('tenant-a', 'tenant-a', ['e-late', 'e-early', 'e-missing']);
    expect(events.map((e) => e.id)).toEqual(['e-early', 'e-late']);
    expect(events[0]).toMatchObject({
      type: 'dev.tokencircuit.tool_call.outcome.v1',
      run: 'run-1',
      agent: 'agent-1',
      occurredAt: '2026-03-04T05:01:00.000Z',
      cloudEvent: { id: 'e-early', data: { n: 'e-early' } },
      kafka: null,
    });
    expect(events[0]!.receivedAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(events[1]!.kafka).toEqual({ topic: 'agent-events', partition: 3, offset: '9007199254740993' });
  });

  it('is empty for no ids', async () => {
    await expect(read('tenant-a', 'tenant-a', [])).resolves.toEqual([]);
  });

  it("returns the asked tenant's event of a shared id, and nothing of a tenant the session is not (row-level security)", async () => {
    await expect(read('tenant-b', 'tenant-b', ['e-early'])).resolves.toMatchObject([
      { id: 'e-early', occurredAt: '2026-03-04T05:00:00.000Z' },
    ]);
    await expect(read('tenant-a', 'tenant-b', ['e-early'])).resolves.toEqual([]);
  });
});
