import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@tokencircuit/testing';
import { pgDatabase } from '../../../libs/storage/src/sql-database.js';
import { asRole } from '../../../libs/storage/src/spec-support/as-role.js';
import {
  explainingSession,
  seedBusyOutbox,
  seedOutboxRows,
} from '../../../libs/storage/src/spec-support/outbox-rows.js';
import { claimOutboxRows } from '../../../libs/storage/src/outbox/claim-outbox-rows.js';

describe('claimOutboxRows (real Postgres)', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase('tc_claim_outbox');
  });
  afterAll(async () => db?.drop());

  const ids = (rows: readonly { id: string }[]) => rows.map((r) => r.id);

  it('claims nothing from an empty outbox', async () => {
    expect(await pgDatabase(db.pool).transaction((tx) => claimOutboxRows(tx, { limit: 10 }))).toEqual([]);
  });

  it('claims pending rows in the order they were written up to the limit, typed, and skips published and parked ones', async () => {
    // The order is the insert's (claim_order, migration 0052), not created_at's: the ids and times below
    // would sort the other way.
    await seedOutboxRows(db.pool, [
      { id: 'c-published', createdAt: "now() - interval '3 minutes'", publishedAt: 'now()' },
      { id: 'd-parked', createdAt: "now() - interval '3 minutes'", parkedAt: 'now()' },
      { id: 'b-newer', createdAt: "now() - interval '1 minute'", keyId: 'k-b', stateVersion: 7 },
      { id: 'a-older', createdAt: "now() - interval '2 minutes'" },
      { id: 'e-newest', createdAt: 'now()' },
    ]);
    const rows = await pgDatabase(db.pool).transaction((tx) => claimOutboxRows(tx, { limit: 2 }));
    expect(ids(rows)).toEqual(['b-newer', 'a-older']);
    expect(rows[0]).toMatchObject({
      tenant: 'acme',
      keyId: 'k-b',
      stateVersion: 7,
      stateSnapshot: { marker: 'b-newer' },
    });
    expect(rows[1]!.waitedSeconds).toBeGreaterThanOrEqual(100);
  });

  it('with ids, claims only those of them still pending', async () => {
    const rows = await pgDatabase(db.pool).transaction((tx) =>
      claimOutboxRows(tx, { limit: 10, ids: ['e-newest', 'c-published', 'no-such-row'] }),
    );
    expect(ids(rows)).toEqual(['e-newest']);
    expect(await pgDatabase(db.pool).transaction((tx) => claimOutboxRows(tx, { limit: 10, ids: [] }))).toEqual([]);
  });

  it('skips rows another transaction holds, so two relays never claim the same row', async () => {
    const database = pgDatabase(db.pool);
    const seen = await database.transaction(async (first) => {
      const mine = await claimOutboxRows(first, { limit: 1 });
      const theirs = await database.transaction((second) => claimOutboxRows(second, { limit: 10 }));
      return { mine: ids(mine), theirs: ids(theirs) };
    });
    expect(seen).toEqual({ mine: ['b-newer'], theirs: ['a-older', 'e-newest'] });
  });

  it("claims every tenant's rows as the decision service's writer role", async () => {
    await seedOutboxRows(db.pool, [{ id: 'f-other-tenant', tenant: 'globex', createdAt: "now() - interval '1 hour'" }]);
    const rows = await asRole(db.pool, 'tokencircuit_writer', (tx) => claimOutboxRows(tx, { limit: 10 }));
    expect(rows.map((r) => [r.id, r.tenant])).toEqual([
      ['b-newer', 'acme'],
      ['a-older', 'acme'],
      ['e-newest', 'acme'],
      ['f-other-tenant', 'globex'],
    ]);
  });

  it('by ids, reads them through the primary key even when statistics say the pending index is nearly empty', async () => {
    const busy = await createTestDatabase('tc_claim_outbox_plan');
    try {
      await seedBusyOutbox(busy.pool, 5_000, ['wanted-1', 'wanted-2', 'wanted-3']);
      const named = ['wanted-2', 'wanted-3', 'published-17'];
      const plans: string[] = [];
      await claimOutboxRows(explainingSession(busy.pool, plans), { limit: 1000, ids: named });
      expect(plans[0]).toContain('decision_outbox_pkey');
      expect(plans[0]).not.toContain('decision_outbox_pending_idx');
      // The rows it then claims are the pending ones named, nothing else.
      const claimed = await pgDatabase(busy.pool).transaction((tx) => claimOutboxRows(tx, { limit: 1000, ids: named }));
      expect(ids(claimed).sort()).toEqual(['wanted-2', 'wanted-3']);
    } finally {
      await busy.drop();
    }
  });
});
