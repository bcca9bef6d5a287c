import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@tokencircuit/testing';
import { pgDatabase } from '../../../libs/storage/src/sql-database.js';
import { asRole } from '../../../libs/storage/src/spec-support/as-role.js';
import { seedOutboxRows } from '../../../libs/storage/src/spec-support/outbox-rows.js';
import { claimOutboxRows } from '../../../libs/storage/src/outbox/claim-outbox-rows.js';
import type { SqlSession } from '../../../libs/storage/src/sql-database.js';

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

  it('claims pending rows oldest first up to the limit, typed, and skips published and parked ones', async () => {
    await seedOutboxRows(db.pool, [
      { id: 'b-newer', createdAt: "now() - interval '1 minute'", keyId: 'k-b', stateVersion: 7 },
      { id: 'a-older', createdAt: "now() - interval '2 minutes'" },
      { id: 'c-published', createdAt: "now() - interval '3 minutes'", publishedAt: 'now()' },
      { id: 'd-parked', createdAt: "now() - interval '3 minutes'", parkedAt: 'now()' },
      { id: 'e-newest', createdAt: 'now()' },
    ]);
    const rows = await pgDatabase(db.pool).transaction((tx) => claimOutboxRows(tx, { limit: 2 }));
    expect(ids(rows)).toEqual(['a-older', 'b-newer']);
    expect(rows[1]).toMatchObject({
      tenant: 'acme',
      keyId: 'k-b',
      stateVersion: 7,
      stateSnapshot: { marker: 'b-newer' },
    });
    expect(rows[0]!.waitedSeconds).toBeGreaterThanOrEqual(100);
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
    expect(seen).toEqual({ mine: ['a-older'], theirs: ['b-newer', 'e-newest'] });
  });

  it("claims every tenant's rows as the decision service's writer role", async () => {
    await seedOutboxRows(db.pool, [{ id: 'f-other-tenant', tenant: 'globex', createdAt: "now() - interval '1 hour'" }]);
    const rows = await asRole(db.pool, 'tokencircuit_writer', (tx) => claimOutboxRows(tx, { limit: 10 }));
    expect(rows.map((r) => [r.id, r.tenant])).toEqual([
      ['f-other-tenant', 'globex'],
      ['a-older', 'acme'],
      ['b-newer', 'acme'],
      ['e-newest', 'acme'],
    ]);
  });

  it('by ids, reads them through the primary key even when statistics say the pending index is nearly empty', async () => {
    // The state a busy outbox is in between vacuums: thousands of published rows whose entries are still in
    // the pending index, on a table whose statistics predate them.
    const busy = await createTestDatabase('tc_claim_outbox_plan');
    try {
      await busy.pool.query(`ALTER TABLE decision_outbox SET (autovacuum_enabled = false)`);
      await busy.pool.query(`INSERT INTO decision_outbox (id, tenant, key_id, state_version, state_snapshot)
        SELECT 'row-' || n, 'acme', 'k-' || n, 1, '{}'::json FROM generate_series(1, 5000) AS n`);
      await busy.pool.query(`UPDATE decision_outbox SET published_at = now() WHERE id <> ALL($1::text[])`, [
        ['row-4998', 'row-4999', 'row-5000'],
      ]);
      // The claim's own statement, explained instead of run (same text, same parameters).
      const plans: unknown[] = [];
      const explaining: SqlSession = {
        query: async <R>(text: string, params?: readonly unknown[]) => {
          const { rows } = await busy.pool.query(`EXPLAIN (FORMAT JSON) ${text}`, params as unknown[]);
          plans.push(rows[0]['QUERY PLAN']);
          return { rows: [] as R[] };
        },
      };
      await claimOutboxRows(explaining, { limit: 1000, ids: ['row-4999', 'row-5000', 'row-17'] });
      const plan = JSON.stringify(plans[0]);
      expect(plan).toContain('decision_outbox_pkey');
      expect(plan).not.toContain('decision_outbox_pending_idx');
      // The rows it then claims are the pending ones named, nothing else.
      const claimed = await pgDatabase(busy.pool).transaction((tx) =>
        claimOutboxRows(tx, { limit: 1000, ids: ['row-4999', 'row-5000', 'row-17'] }),
      );
      expect(ids(claimed).sort()).toEqual(['row-4999', 'row-5000']);
    } finally {
      await busy.drop();
    }
  });
});
