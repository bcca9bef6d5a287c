import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@tokencircuit/testing';
import { appendInterventions, interventionFor, readAs } from '../../../libs/storage/src/spec-support/read-fixtures.js';
import { readChainTip } from '../../../libs/storage/src/audit/read-chain-tip.js';

describe('readChainTip', () => {
  let db: TestDatabase;
  const tip = (tenant: string) => readAs(db.pool, tenant, readChainTip);

  beforeAll(async () => {
    db = await createTestDatabase('tc_read_chain_tip');
    // Ten of tenant-a's rows, so a text sort of seq would pick seq 9 over 10; tenant-b appends last.
    await appendInterventions(
      db.pool,
      Array.from({ length: 10 }, (_, i) => interventionFor('tenant-a', `a${i + 1}`)),
    );
    await appendInterventions(db.pool, [interventionFor('tenant-b', 'b1')]);
  });
  afterAll(async () => {
    await db?.drop();
  });

  it('is null for a tenant without interventions', async () => {
    await expect(tip('tenant-c')).resolves.toBeNull();
  });

  it("is the tenant's newest row, not another tenant's newer one", async () => {
    const { rows } = await db.pool.query<{ id: string; seq: string; hash: string }>(
      `SELECT id, seq::text AS seq, hash FROM interventions WHERE id IN ('a10', 'b1')`,
    );
    const byId = Object.fromEntries(rows.map((r) => [r.id, { seq: Number(r.seq), hash: r.hash }]));
    await expect(tip('tenant-a')).resolves.toEqual(byId['a10']);
    await expect(tip('tenant-b')).resolves.toEqual(byId['b1']);
  });
});
