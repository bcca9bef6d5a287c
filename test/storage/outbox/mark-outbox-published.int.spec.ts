import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@tokencircuit/testing';
import { pgDatabase, pgSession } from '../../../libs/storage/src/sql-database.js';
import { asRole } from '../../../libs/storage/src/spec-support/as-role.js';
import { outboxRowStates, seedOutboxRows } from '../../../libs/storage/src/spec-support/outbox-rows.js';
import { claimOutboxRows } from '../../../libs/storage/src/outbox/claim-outbox-rows.js';
import { markOutboxPublished } from '../../../libs/storage/src/outbox/mark-outbox-published.js';

describe('markOutboxPublished (real Postgres)', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase('tc_mark_outbox_published');
    await seedOutboxRows(db.pool, [{ id: 'o-1' }, { id: 'o-2' }, { id: 'o-3', tenant: 'globex' }]);
  });
  afterAll(async () => db?.drop());

  it('changes nothing for no ids', async () => {
    await markOutboxPublished(pgDatabase(db.pool), []);
    expect((await outboxRowStates(db.pool)).filter((r) => r.published)).toEqual([]);
  });

  it('marks the named rows published, counting the attempt, and the claim no longer returns them', async () => {
    await asRole(db.pool, 'tokencircuit_writer', (tx) => markOutboxPublished(tx, ['o-1', 'o-3']));
    expect((await outboxRowStates(db.pool)).map((r) => [r.id, r.published, r.attempts])).toEqual([
      ['o-1', true, 1],
      ['o-2', false, 0],
      ['o-3', true, 1],
    ]);
    const pending = await pgDatabase(db.pool).transaction((tx) => claimOutboxRows(tx, { limit: 10 }));
    expect(pending.map((r) => r.id)).toEqual(['o-2']);
  });

  it('runs prepared and settles on its generic plan, which finds the rows through the primary key', async () => {
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    try {
      // Rows of their own, published again and again: the statement is idempotent about them.
      await seedOutboxRows(db.pool, [{ id: 'plan-1' }, { id: 'plan-2' }]);
      for (let i = 0; i < 8; i += 1) await markOutboxPublished(pgSession(client), ['plan-1', 'plan-2', `absent-${i}`]);
      const { rows } = await client.query<{ custom_plans: string; generic_plans: string }>(
        `SELECT custom_plans::text, generic_plans::text FROM pg_prepared_statements WHERE name = 'mark-outbox-published-v1'`,
      );
      // Five custom plans, then the generic one: the ids reach it through a sub-select, so no plan knows more.
      expect(rows).toEqual([{ custom_plans: '5', generic_plans: '3' }]);
      // On a table of some size, with statistics, as a deployment's is.
      await seedOutboxRows(
        db.pool,
        Array.from({ length: 3_000 }, (_, i) => ({ id: `bulk-${i}` })),
      );
      await db.pool.query('ANALYZE decision_outbox');
      await client.query('SET plan_cache_mode = force_generic_plan');
      const plan = await client.query<{ 'QUERY PLAN': string }>(
        `EXPLAIN EXECUTE "mark-outbox-published-v1"('{plan-1,plan-2}')`,
      );
      expect(plan.rows.map((r) => r['QUERY PLAN']).join('\n')).toMatch(/Index (Only )?Scan on decision_outbox_pkey/);
      expect((await outboxRowStates(db.pool)).find((r) => r.id === 'plan-1')?.attempts).toBe(8);
    } finally {
      await client.end();
    }
  });
});
