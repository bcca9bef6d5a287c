import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { migrate, pgDatabase } from '@tokencircuit/storage';
import { createTestDatabase, type TestDatabase } from '@tokencircuit/testing';
import { claimOutboxRows } from '../../libs/storage/src/outbox/claim-outbox-rows.js';
import { asRole } from '../../libs/storage/src/spec-support/as-role.js';
import { seedOutboxRows } from '../../libs/storage/src/spec-support/outbox-rows.js';
import { migrationsBefore } from './support/migrations-before.js';

describe('migration 0052 (the claim order as a number) on a database an older build filled', () => {
  let db: TestDatabase | undefined;
  let folder: string | undefined;
  afterAll(async () => {
    await db?.drop();
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  it('numbers the existing rows in their old claim order, claims them as before, and new rows after them', async () => {
    db = await createTestDatabase('tc_migration_0052', { migrate: false });
    folder = migrationsBefore(52);
    await migrate(db.url, { migrationsFolder: folder });
    // Written in an order unlike the old claim order (created_at, then id), so the numbering must come from the latter.
    await seedOutboxRows(db.pool, [
      { id: 'k1@v2', createdAt: "now() - interval '1 minute'" },
      { id: 'k2@v1', createdAt: "now() - interval '5 minutes'", publishedAt: 'now()' },
      { id: 'k1@v1', createdAt: "now() - interval '3 minutes'" },
      { id: 'k4@v1', createdAt: "now() - interval '2 minutes'", parkedAt: 'now()' },
      { id: 'k3@v1', createdAt: "now() - interval '3 minutes'" },
    ]);

    await migrate(db.url);

    const numbered = await db.pool.query<{ id: string; claim_order: string }>(
      'SELECT id, claim_order::text FROM decision_outbox ORDER BY claim_order',
    );
    expect(numbered.rows).toEqual([
      { id: 'k2@v1', claim_order: '1' },
      { id: 'k1@v1', claim_order: '2' },
      { id: 'k3@v1', claim_order: '3' },
      { id: 'k4@v1', claim_order: '4' },
      { id: 'k1@v2', claim_order: '5' },
    ]);
    // The projector's role inserts as before (the sequence is granted to it) and its rows come after the old ones.
    await asRole(db.pool, 'tokencircuit_writer', (tx) =>
      tx.query(
        `INSERT INTO decision_outbox (id, tenant, key_id, state_version, state_snapshot)
         VALUES ('k0@v1', 'acme', 'k0', 1, '{"marker":"new"}')`,
      ),
    );
    const claimed = await pgDatabase(db.pool).transaction((tx) => claimOutboxRows(tx, { limit: 10 }));
    expect(claimed.map((r) => r.id)).toEqual(['k1@v1', 'k3@v1', 'k1@v2', 'k0@v1']);

    const index = await db.pool.query<{ indexdef: string }>(
      `SELECT indexdef FROM pg_indexes WHERE indexname = 'decision_outbox_pending_idx'`,
    );
    expect(index.rows[0]!.indexdef).toContain('(claim_order) WHERE ((published_at IS NULL) AND (parked_at IS NULL))');
  });
});
