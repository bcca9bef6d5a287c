import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@tokencircuit/testing';
import { insertAgentEvent, readAs } from '../../../libs/storage/src/spec-support/read-fixtures.js';
import { readRunEvents } from '../../../libs/storage/src/events/read-run-events.js';

describe('readRunEvents', () => {
  let db: TestDatabase;
  const read = (tenant: string, run: string, limit: number) =>
    readAs(db.pool, tenant, (s) => readRunEvents(s, run, limit));
  const ids = async (tenant: string, run: string, limit: number) => {
    const { events, truncated } = await read(tenant, run, limit);
    return { ids: events.map((e) => e.id), truncated };
  };

  beforeAll(async () => {
    db = await createTestDatabase('tc_read_run_events');
    // Inserted out of time order; e3 and e3b occurred at the same instant (insertion order breaks the tie).
    const at = (minute: number) => new Date(Date.UTC(2026, 2, 4, 5, minute));
    await insertAgentEvent(db.pool, { tenant: 'tenant-a', id: 'e2', occurredAt: at(2) });
    await insertAgentEvent(db.pool, { tenant: 'tenant-a', id: 'e1', occurredAt: at(1) });
    await insertAgentEvent(db.pool, { tenant: 'tenant-a', id: 'e3', occurredAt: at(3) });
    await insertAgentEvent(db.pool, { tenant: 'tenant-a', id: 'e3b', occurredAt: at(3) });
    await insertAgentEvent(db.pool, { tenant: 'tenant-a', id: 'other-run', run: 'run-2', occurredAt: at(4) });
    await insertAgentEvent(db.pool, { tenant: 'tenant-b', id: 'b1', occurredAt: at(5) });
  });
  afterAll(async () => {
    await db?.drop();
  });

  it('is empty and not truncated for a run without events', async () => {
    await expect(read('tenant-a', 'run-none', 10)).resolves.toEqual({ events: [], truncated: false });
  });

  it("reads the run's events in the order they occurred, with each event's data", async () => {
    await expect(ids('tenant-a', 'run-1', 10)).resolves.toEqual({ ids: ['e1', 'e2', 'e3', 'e3b'], truncated: false });
    const [first] = (await read('tenant-a', 'run-1', 10)).events;
    expect(first).toMatchObject({ id: 'e1', type: 'dev.tokencircuit.tool_call.outcome.v1', agent: 'agent-1' });
    expect(new Date(first!.occurredAt).toISOString()).toBe('2026-03-04T05:01:00.000Z');
    expect(first!.data).toEqual({ n: 'e1' });
  });

  it('keeps the newest `limit` events: not truncated at exactly the limit, truncated one below it', async () => {
    await expect(ids('tenant-a', 'run-1', 4)).resolves.toEqual({ ids: ['e1', 'e2', 'e3', 'e3b'], truncated: false });
    await expect(ids('tenant-a', 'run-1', 3)).resolves.toEqual({ ids: ['e2', 'e3', 'e3b'], truncated: true });
    await expect(ids('tenant-a', 'run-1', 1)).resolves.toEqual({ ids: ['e3b'], truncated: true });
  });

  it("does not show another tenant's run of the same name (row-level security)", async () => {
    await expect(ids('tenant-b', 'run-1', 10)).resolves.toEqual({ ids: ['b1'], truncated: false });
    await expect(ids('tenant-c', 'run-1', 10)).resolves.toEqual({ ids: [], truncated: false });
  });
});
