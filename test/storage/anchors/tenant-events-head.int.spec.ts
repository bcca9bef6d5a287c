import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@tokencircuit/testing';
import { pgDatabase } from '../../../libs/storage/src/sql-database.js';
import { insertAgentEvent } from '../../../libs/storage/src/spec-support/read-fixtures.js';
import { advanceEventsHead, NO_EVENTS } from '../../../libs/storage/src/anchors/events-digest.js';
import { readDigestedEvents } from '../../../libs/storage/src/anchors/read-digested-events.js';
import { tenantEventsHead } from '../../../libs/storage/src/anchors/tenant-events-head.js';

describe('tenantEventsHead (real Postgres)', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase('tc_tenant_events_head');
  });
  afterAll(async () => db?.drop());

  it("recomputes a tenant's head through a seq, page by page, as one fold of its events would", async () => {
    for (let n = 1; n <= 7; n += 1) {
      await insertAgentEvent(db.pool, { id: `h-${n}`, tenant: n === 4 ? 'globex' : 'acme' });
    }
    const session = pgDatabase(db.pool);
    const acme = await readDigestedEvents(session, { after: 0, through: 6, tenant: 'acme', limit: 100 });
    expect(acme.map((e) => e.seq)).toEqual([1, 2, 3, 5, 6]);
    const expected = advanceEventsHead(NO_EVENTS, acme, 6);
    expect(expected.count).toBe(5);
    // Pages of two: the head must not depend on where pages end.
    expect(await tenantEventsHead(session, 'acme', 6, 2)).toEqual(expected);
    expect(await tenantEventsHead(session, 'acme', 6)).toEqual(expected);
    // A tenant without events up to the seq has no digest, only the position.
    expect(await tenantEventsHead(session, 'initech', 6)).toEqual({ through: 6, count: 0, digest: null });
  });
});
