import fc from 'fast-check';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canonicalJson } from '@tokencircuit/governance';
import {
  appendInterventions,
  chainDocument,
  pgDatabase,
  readInterventionChain,
  verifyTenantChain,
  type NewIntervention,
} from '@tokencircuit/storage';
import { createTestDatabase, type TestDatabase } from '@tokencircuit/testing';
import { interventionFixture } from '../support/postgres-fixtures.js';

async function sqlVerify(pool: pg.Pool, tenant: string) {
  const { rows } = await pool.query(
    `SELECT ok, checked::int AS checked, first_broken_seq::int AS "firstBrokenSeq", reason
       FROM tokencircuit_verify_intervention_chain($1)`,
    [tenant],
  );
  return rows[0] as { ok: boolean; checked: number; firstBrokenSeq: number | null; reason: string | null };
}

/** Appends in its own pooled transaction, as each decision-service instance would. */
async function appendInOwnTransaction(db: TestDatabase, row: NewIntervention) {
  return pgDatabase(db.pool).transaction(async (tx) => (await appendInterventions(tx, [row]))[0]!);
}

/** Edits the audit trail the only way left: the table owner switches the protection off. */
async function tamper(pool: pg.Pool, statement: string, params: unknown[]): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('ALTER TABLE interventions DISABLE TRIGGER interventions_refuse_update');
    await client.query('ALTER TABLE interventions DISABLE TRIGGER interventions_refuse_delete');
    await client.query(statement, params);
    await client.query('ALTER TABLE interventions ENABLE TRIGGER interventions_refuse_update');
    await client.query('ALTER TABLE interventions ENABLE TRIGGER interventions_refuse_delete');
    await client.query('COMMIT');
  } finally {
    client.release();
  }
}

describe('per-tenant hash chain', () => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await createTestDatabase('tc_hash_chain');
  });

  afterAll(async () => {
    await db?.drop();
  });

  describe('concurrent appends', () => {
    const writers = 24;

    beforeAll(async () => {
      // Two tenants appending at once from many transactions; the pool runs up to 10 of them in parallel.
      await Promise.all(
        Array.from({ length: writers }, (_, i) =>
          appendInOwnTransaction(db, interventionFixture(`c-${i}`, i % 3 === 0 ? 'other' : 'busy')),
        ),
      );
    });

    it('form one linear chain per tenant: genesis first, every row linked to its predecessor', async () => {
      const chain = await readInterventionChain(db.pool, 'busy');
      expect(chain).toHaveLength(16);
      expect(chain[0]!.prevHash).toBeNull();
      for (let i = 1; i < chain.length; i++) expect(chain[i]!.prevHash).toBe(chain[i - 1]!.hash);
    });

    it('verify in TypeScript and in SQL', async () => {
      await expect(verifyTenantChain(db.pool, 'busy')).resolves.toEqual({ ok: true, checked: 16 });
      await expect(verifyTenantChain(db.pool, 'other')).resolves.toEqual({ ok: true, checked: 8 });
      await expect(sqlVerify(db.pool, 'busy')).resolves.toEqual({
        ok: true,
        checked: 16,
        firstBrokenSeq: null,
        reason: null,
      });
    });

    it('verify page by page', async () => {
      await expect(verifyTenantChain(db.pool, 'busy', { pageSize: 5 })).resolves.toEqual({ ok: true, checked: 16 });
    });
  });

  it('republishing an intervention id returns the stored row and appends nothing', async () => {
    const first = await appendInOwnTransaction(db, interventionFixture('r-1', 'republish'));
    const again = await appendInOwnTransaction(
      db,
      interventionFixture('r-1', 'republish', { issuedAt: '2030-01-01T00:00:00Z' }),
    );
    expect(first.appended).toBe(true);
    expect(again).toEqual({ appended: false, intervention: first.intervention });
    await expect(verifyTenantChain(db.pool, 'republish')).resolves.toEqual({ ok: true, checked: 1 });
  });

  it('refuses an intervention id already used by another tenant', async () => {
    await appendInOwnTransaction(db, interventionFixture('shared-id', 'tenant-x'));
    await expect(appendInOwnTransaction(db, interventionFixture('shared-id', 'tenant-y'))).rejects.toThrow(
      'already belongs to another tenant',
    );
  });

  it('stores issued_at at millisecond precision so the stored row hashes to its hash', async () => {
    const { intervention } = await appendInOwnTransaction(
      db,
      interventionFixture('ms-1', 'precision', { issuedAt: '2026-03-04T07:06:07.089999+02:00' }),
    );
    expect(intervention.issuedAt).toBe('2026-03-04T05:06:07.089Z');
    await expect(verifyTenantChain(db.pool, 'precision')).resolves.toEqual({ ok: true, checked: 1 });
  });

  it('refuses bad input with a message naming the field', async () => {
    const bad = { ...interventionFixture('bad-1', 'acme'), level: 'shout' } as unknown as NewIntervention;
    await expect(appendInOwnTransaction(db, bad)).rejects.toThrow(/Invalid intervention:[\s\S]*level/);
    const unhashable = interventionFixture('bad-2', 'acme', { artifact: { ratio: Number.NaN } });
    await expect(appendInOwnTransaction(db, unhashable)).rejects.toThrow('$.ratio is NaN');
  });

  it('cannot fork even if a writer bypasses appendInterventions: one row per (tenant, prev_hash)', async () => {
    const { intervention } = await appendInOwnTransaction(db, interventionFixture('f-1', 'fork'));
    const insertAfterGenesis = `INSERT INTO interventions (id, tenant, level, failure_class, key_id, tool_name, next_action,
        artifact, policy_version, state_version, causing_event_ids, prev_hash, hash, issued_at)
      VALUES ($1, 'fork', 'block', 'permission', 'k', 't', 'proceed', '{}', 'p', 1, '{}', $2, repeat('0', 64), now())`;
    await db.pool.query(insertAfterGenesis, ['f-2', intervention.hash]);
    await expect(db.pool.query(insertAfterGenesis, ['f-3', intervention.hash])).rejects.toThrow(
      'interventions_tenant_prev_hash_key',
    );
    await expect(db.pool.query(insertAfterGenesis, ['f-4', null])).rejects.toThrow(
      'interventions_tenant_prev_hash_key',
    );
  });

  describe('tampering by someone who disables the protection', () => {
    const tenant = 'tampered';
    let seqs: number[];

    beforeAll(async () => {
      for (let i = 0; i < 5; i++) await appendInOwnTransaction(db, interventionFixture(`t-${i}`, tenant));
      seqs = (await readInterventionChain(db.pool, tenant)).map((row) => row.seq);
      await expect(verifyTenantChain(db.pool, tenant)).resolves.toEqual({ ok: true, checked: 5 });
    });

    it('an edited artifact breaks the chain at that row, in TypeScript and in SQL', async () => {
      await tamper(db.pool, `UPDATE interventions SET artifact = artifact || '{"retry_count": 3}' WHERE id = $1`, [
        't-2',
      ]);
      const broken = await verifyTenantChain(db.pool, tenant);
      expect(broken).toMatchObject({
        ok: false,
        checked: 2,
        firstBrokenSeq: seqs[2],
        reason: expect.stringContaining('does not match its hash'),
      });
      expect(await sqlVerify(db.pool, tenant)).toEqual({ ...broken });
    });

    it('a deleted row breaks the chain at its successor', async () => {
      // Undo the edit first (still with the protection off) so only the deletion is under test.
      await tamper(
        db.pool,
        `UPDATE interventions SET artifact = artifact - 'retry_count' || '{"retry_count": 0}' WHERE id = $1`,
        ['t-2'],
      );
      await expect(verifyTenantChain(db.pool, tenant)).resolves.toEqual({ ok: true, checked: 5 });
      await tamper(db.pool, `DELETE FROM interventions WHERE id = $1`, ['t-3']);
      const broken = await verifyTenantChain(db.pool, tenant);
      expect(broken).toMatchObject({
        ok: false,
        checked: 3,
        firstBrokenSeq: seqs[4],
        reason: expect.stringContaining('removed'),
      });
      expect(await sqlVerify(db.pool, tenant)).toEqual({ ...broken });
    });

    it('re-enabled the triggers after each edit', async () => {
      await expect(db.pool.query(`DELETE FROM interventions WHERE tenant = $1`, [tenant])).rejects.toThrow(
        'append-only',
      );
    });
  });

  describe('the SQL canonical JSON matches the TypeScript one', () => {
    const sqlCanonical = async (values: readonly unknown[]): Promise<string[]> => {
      const { rows } = await db.pool.query<{ text: string }>(
        `SELECT tokencircuit_canonical_json(value) AS text FROM jsonb_array_elements($1::jsonb) WITH ORDINALITY AS v(value, i) ORDER BY i`,
        [JSON.stringify(values)],
      );
      return rows.map((r) => r.text);
    };

    it('on the RFC 8785 example', async () => {
      const example = JSON.parse(String.raw`{
        "numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001],
        "string": "\u20ac$\u000F\u000aA'\u0042\u0022\u005c\\\"\/",
        "literals": [null, true, false],
        "\ufb33": 1, "\ud83d\ude00": 2
      }`) as unknown;
      await expect(sqlCanonical([example])).resolves.toEqual([canonicalJson(example)]);
    });

    it('on random JSON (any Unicode, any double)', async () => {
      // jsonb cannot hold \u0000; everything else JSON can say must agree byte for byte.
      const storable = fc
        .jsonValue({ stringUnit: 'binary', maxDepth: 3 })
        .filter((value) => !JSON.stringify(value).includes('\\u0000'));
      const values = fc.sample(storable, { numRuns: 400, seed: 4242 });
      const doubles = fc.sample(fc.double({ noNaN: true, noDefaultInfinity: true }), { numRuns: 400, seed: 4243 });
      const all = [...values, ...doubles];
      expect(await sqlCanonical(all)).toEqual(all.map((value) => canonicalJson(value)));
    });

    it('on a stored intervention document', async () => {
      const [row] = await readInterventionChain(db.pool, 'busy', { limit: 1 });
      const { rows } = await db.pool.query<{ document: string }>(
        `SELECT tokencircuit_intervention_document(i) AS document FROM interventions i WHERE id = $1`,
        [row!.id],
      );
      expect(rows[0]!.document).toBe(chainDocument(row!, row!.prevHash));
    });
  });
});
