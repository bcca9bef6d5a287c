import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@tokencircuit/testing';
import { insertAgentEvent } from '../../../libs/storage/src/spec-support/read-fixtures.js';
import { sessionElsewhere } from '../../../libs/storage/src/spec-support/session-elsewhere.js';
import { readStoredEventPage } from '../../../libs/storage/src/events/read-stored-event-page.js';

describe('readStoredEventPage (real Postgres)', () => {
  let db: TestDatabase;
  let session: Awaited<ReturnType<typeof sessionElsewhere>>;
  const at = (hour: number) => new Date(Date.UTC(2026, 2, 4, hour));
  const ids = (rows: { cloudEvent: unknown }[]) => rows.map((r) => (r.cloudEvent as { id: string }).id);

  beforeAll(async () => {
    db = await createTestDatabase('tc_read_stored_event_page');
    // Twelve events, seq 1..12, occurring in the reverse order they were stored: reads follow seq, not time.
    for (let n = 1; n <= 12; n++) {
      await insertAgentEvent(db.pool, {
        tenant: n % 3 === 0 ? 'globex' : 'acme',
        id: `e-${n}`,
        occurredAt: at(24 - n),
      });
    }
    session = await sessionElsewhere(db.url);
  });
  afterAll(async () => {
    await session?.end();
    await db?.drop();
  });

  it('reads in seq order (10 after 9, not before), a keyset page at a time, each with its position and CloudEvent', async () => {
    const first = await readStoredEventPage(session, { schema: 'public', after: '0', limit: 9 });
    expect(first.map((r) => r.position)).toEqual(['1', '2', '3', '4', '5', '6', '7', '8', '9']);
    expect(first[0]!.cloudEvent).toEqual({ id: 'e-1', data: { n: 'e-1' } });
    const rest = await readStoredEventPage(session, { schema: 'public', after: first.at(-1)!.position, limit: 9 });
    expect(ids(rest)).toEqual(['e-10', 'e-11', 'e-12']);
    await expect(readStoredEventPage(session, { schema: 'public', after: '12', limit: 9 })).resolves.toEqual([]);
  });

  it("reads one tenant's events, and a time range's from inclusive to exclusive", async () => {
    const page = (filter: { tenant?: string; from?: string; to?: string }) =>
      readStoredEventPage(session, { schema: 'public', after: '0', limit: 100, filter });
    expect(ids(await page({ tenant: 'globex' }))).toEqual(['e-3', 'e-6', 'e-9', 'e-12']);
    // e-n occurred at hour 24 - n: from hour 14 (e-10) up to, not including, hour 17 (e-7).
    expect(ids(await page({ from: at(14).toISOString(), to: at(17).toISOString() }))).toEqual(['e-8', 'e-9', 'e-10']);
    expect(ids(await page({ tenant: 'acme', from: at(14).toISOString(), to: at(17).toISOString() }))).toEqual([
      'e-8',
      'e-10',
    ]);
  });
});
