import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@tokencircuit/testing';
import { insertAgentEvent } from '../../../libs/storage/src/spec-support/read-fixtures.js';
import { sessionElsewhere } from '../../../libs/storage/src/spec-support/session-elsewhere.js';
import { countStoredEvents } from '../../../libs/storage/src/events/count-stored-events.js';

describe('countStoredEvents (real Postgres)', () => {
  let db: TestDatabase;
  let session: Awaited<ReturnType<typeof sessionElsewhere>>;
  const at = (hour: number) => new Date(Date.UTC(2026, 2, 4, hour));

  beforeAll(async () => {
    db = await createTestDatabase('tc_count_stored_events');
    await insertAgentEvent(db.pool, { tenant: 'acme', id: 'a-9', occurredAt: at(9) });
    await insertAgentEvent(db.pool, { tenant: 'acme', id: 'a-10', occurredAt: at(10) });
    await insertAgentEvent(db.pool, { tenant: 'acme', id: 'a-11', occurredAt: at(11) });
    await insertAgentEvent(db.pool, { tenant: 'globex', id: 'g-10', occurredAt: at(10) });
    session = await sessionElsewhere(db.url);
  });
  afterAll(async () => {
    await session?.end();
    await db?.drop();
  });

  it("counts every tenant's events without a filter", async () => {
    expect(await countStoredEvents(session, 'public')).toBe(4);
  });

  it("counts one tenant's, and a time range's from inclusive to exclusive", async () => {
    expect(await countStoredEvents(session, 'public', { tenant: 'acme' })).toBe(3);
    expect(await countStoredEvents(session, 'public', { from: at(10).toISOString() })).toBe(3);
    expect(await countStoredEvents(session, 'public', { to: at(10).toISOString() })).toBe(1);
    const range = { from: at(10).toISOString(), to: at(11).toISOString() };
    expect(await countStoredEvents(session, 'public', range)).toBe(2);
    expect(await countStoredEvents(session, 'public', { ...range, tenant: 'globex' })).toBe(1);
    expect(await countStoredEvents(session, 'public', { tenant: 'initech' })).toBe(0);
  });
});
