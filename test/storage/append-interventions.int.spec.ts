import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  appendInterventions,
  pgDatabase,
  readInterventionChain,
  verifyTenantChain,
  type ChainedIntervention,
  type NewIntervention,
} from '@tokencircuit/storage';
import { createTestDatabase, type TestDatabase } from '@tokencircuit/testing';
import { interventionFixture } from '../support/postgres-fixtures.js';

const inTransaction = (db: TestDatabase, rows: readonly NewIntervention[]) =>
  pgDatabase(db.pool).transaction((tx) => appendInterventions(tx, rows));

/** A chain without its seq: what must not depend on how the rows were appended. */
const contentAndLinks = (chain: readonly ChainedIntervention[]) => chain.map(({ seq: _seq, ...rest }) => rest);

describe('appendInterventions: a relay round recorded in one batch', () => {
  let db: TestDatabase;
  let oneByOne: TestDatabase;

  beforeAll(async () => {
    [db, oneByOne] = await Promise.all([createTestDatabase('tc_append_batch'), createTestDatabase('tc_append_single')]);
  });

  afterAll(async () => {
    await Promise.all([db?.drop(), oneByOne?.drop()]);
  });

  it('stores the same rows, links and hashes as appending one by one in the same order', async () => {
    const rows = [
      interventionFixture('s-1', 'acme'),
      interventionFixture('s-2', 'globex'),
      interventionFixture('s-3', 'acme', { level: 'advise', nextAction: 'retry_with_backoff' }),
      interventionFixture('s-4', 'acme'),
    ];
    await inTransaction(db, rows);
    for (const row of rows) await pgDatabase(oneByOne.pool).transaction((tx) => appendInterventions(tx, [row]));

    for (const tenant of ['acme', 'globex']) {
      const batched = await readInterventionChain(db.pool, tenant);
      expect(contentAndLinks(batched)).toEqual(contentAndLinks(await readInterventionChain(oneByOne.pool, tenant)));
      await expect(verifyTenantChain(db.pool, tenant)).resolves.toEqual({ ok: true, checked: batched.length });
      const { rows: sql } = await db.pool.query('SELECT ok FROM tokencircuit_verify_intervention_chain($1)', [tenant]);
      expect(sql).toEqual([{ ok: true }]);
    }
  });

  it('continues the chain a single append left, and a single append continues the batch', async () => {
    const single = await pgDatabase(db.pool).transaction(
      async (tx) => (await appendInterventions(tx, [interventionFixture('m-1', 'mixed')]))[0]!,
    );
    const [first, second] = await inTransaction(db, [
      interventionFixture('m-2', 'mixed'),
      interventionFixture('m-3', 'mixed'),
    ]);
    const after = await pgDatabase(db.pool).transaction(
      async (tx) => (await appendInterventions(tx, [interventionFixture('m-4', 'mixed')]))[0]!,
    );
    expect(first!.intervention.prevHash).toBe(single.intervention.hash);
    expect(second!.intervention.prevHash).toBe(first!.intervention.hash);
    expect(after.intervention.prevHash).toBe(second!.intervention.hash);
    await expect(verifyTenantChain(db.pool, 'mixed')).resolves.toEqual({ ok: true, checked: 4 });
  });

  it('returns ids already stored, and repeats within the batch, as not appended, and appends nothing for them', async () => {
    const [stored] = await inTransaction(db, [interventionFixture('r-1', 'republish')]);
    const results = await inTransaction(db, [
      interventionFixture('r-1', 'republish', { issuedAt: '2030-01-01T00:00:00Z' }),
      interventionFixture('r-2', 'republish'),
      interventionFixture('r-2', 'republish'),
    ]);
    expect(results.map((r) => r.appended)).toEqual([false, true, false]);
    expect(results[0]!.intervention).toEqual(stored!.intervention);
    expect(results[2]!.intervention).toEqual(results[1]!.intervention);
    await expect(verifyTenantChain(db.pool, 'republish')).resolves.toEqual({ ok: true, checked: 2 });
  });

  it('refuses a batch holding an id another tenant already used, and writes none of it', async () => {
    await inTransaction(db, [interventionFixture('taken', 'owner')]);
    await expect(
      inTransaction(db, [interventionFixture('x-1', 'intruder'), interventionFixture('taken', 'intruder')]),
    ).rejects.toThrow('already belongs to another tenant');
    await expect(readInterventionChain(db.pool, 'intruder')).resolves.toEqual([]);
  });

  it('refuses bad input with a message naming the field, before touching the database', async () => {
    const bad = { ...interventionFixture('bad-1', 'acme'), level: 'shout' } as unknown as NewIntervention;
    await expect(inTransaction(db, [bad])).rejects.toThrow(/Invalid intervention:[\s\S]*level/);
  });

  it('lets concurrent batches over the same tenants, in opposite orders, queue instead of deadlocking', async () => {
    const tenants = ['north', 'south', 'east'];
    const batch = (writer: number) =>
      (writer % 2 === 0 ? tenants : [...tenants].reverse()).map((tenant) =>
        interventionFixture(`w-${writer}-${tenant}`, tenant),
      );
    await Promise.all(Array.from({ length: 8 }, (_, writer) => inTransaction(db, batch(writer))));
    for (const tenant of tenants) {
      const chain = await readInterventionChain(db.pool, tenant);
      expect(chain).toHaveLength(8);
      for (let i = 1; i < chain.length; i++) expect(chain[i]!.prevHash).toBe(chain[i - 1]!.hash);
      await expect(verifyTenantChain(db.pool, tenant)).resolves.toEqual({ ok: true, checked: 8 });
    }
  });

  it('returns each appended row exactly as a read of the chain gives it back', async () => {
    const results = await inTransaction(db, [
      interventionFixture('e-1', 'echo', { issuedAt: '2026-03-04T07:06:07.089123+02:00', run: null, principal: null }),
      interventionFixture('e-2', 'echo', {
        artifact: { nested: { list: [1, 2.5, 'x', null, true] }, zeta: 1, alpha: 'a' },
      }),
    ]);
    expect(results.map((r) => r.intervention)).toEqual(await readInterventionChain(db.pool, 'echo'));
  });

  it('keeps an artifact of up to a page inline and uncompressed (no pglz on every append and read)', async () => {
    const artifact = {
      ...interventionFixture('big', 'inline').artifact,
      sample_receipts: ['x'.repeat(900), 'y'.repeat(900)],
    };
    await inTransaction(db, [interventionFixture('big-1', 'inline', { artifact })]);
    const { rows } = await db.pool.query(
      `SELECT pg_column_compression(artifact) AS compression, pg_column_size(i.*) AS row_size
         FROM interventions i WHERE id = 'big-1'`,
    );
    expect(rows[0]!['row_size']).toBeGreaterThan(2100);
    expect(rows[0]!['compression']).toBeNull();
  });

  it('treats an empty batch as nothing to append', async () => {
    await expect(inTransaction(db, [])).resolves.toEqual([]);
  });
});
