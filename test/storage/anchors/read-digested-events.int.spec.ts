import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@tokencircuit/testing';
import { pgDatabase } from '../../../libs/storage/src/sql-database.js';
import { insertAgentEvent } from '../../../libs/storage/src/spec-support/read-fixtures.js';
import { readDigestedEvents } from '../../../libs/storage/src/anchors/read-digested-events.js';

describe('readDigestedEvents (real Postgres)', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase('tc_read_digested_events');
  });
  afterAll(async () => db?.drop());

  it('reads a seq range in numeric seq order, of one tenant or all, in stored form', async () => {
    // Twelve events: seq 9 must come before seq 10 to 12 (a text sort would not).
    for (let n = 1; n <= 12; n += 1) {
      await insertAgentEvent(db.pool, {
        id: `e-${n}`,
        tenant: n % 3 === 0 ? 'globex' : 'acme',
        occurredAt: new Date(Date.UTC(2026, 2, 4, 5, 6, n)),
        cloudEvent: { id: `e-${n}`, data: { n } },
      });
    }
    const session = pgDatabase(db.pool);
    const all = await readDigestedEvents(session, { after: 0, through: 12, limit: 100 });
    expect(all.map((e) => e.id)).toEqual(Array.from({ length: 12 }, (_, i) => `e-${i + 1}`));
    expect(all.map((e) => e.seq)).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
    expect(all[8]).toEqual({
      seq: 9,
      id: 'e-9',
      tenant: 'globex',
      run: 'run-1',
      agent: 'agent-1',
      type: 'dev.tokencircuit.tool_call.outcome.v1',
      occurredAt: '2026-03-04T05:06:09.000000Z',
      cloudEvent: '{"id":"e-9","data":{"n":9}}',
    });
    const globex = await readDigestedEvents(session, { after: 3, through: 9, tenant: 'globex', limit: 100 });
    expect(globex.map((e) => e.seq)).toEqual([6, 9]);
    const page = await readDigestedEvents(session, { after: 8, through: 12, limit: 2 });
    expect(page.map((e) => e.seq)).toEqual([9, 10]);
    expect(await readDigestedEvents(session, { after: 12, through: 20, limit: 100 })).toEqual([]);
  });
});
