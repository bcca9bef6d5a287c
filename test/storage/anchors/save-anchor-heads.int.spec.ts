import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@tokencircuit/testing';
import { pgDatabase } from '../../../libs/storage/src/sql-database.js';
import { asRole } from '../../../libs/storage/src/spec-support/as-role.js';
import { generateAnchorKeyPair, parseAnchorSigningKey } from '../../../libs/storage/src/anchors/anchor-key.js';
import { signAnchor } from '../../../libs/storage/src/anchors/audit-anchor.js';
import { readAnchorHeads } from '../../../libs/storage/src/anchors/read-anchor-heads.js';
import { saveAnchorHeads } from '../../../libs/storage/src/anchors/save-anchor-heads.js';

const key = parseAnchorSigningKey(generateAnchorKeyPair().privateKeyPem);
const anchorOf = (tenant: string, through: number) =>
  signAnchor(
    { tenant, chain: null, events: { through, count: through, digest: null }, anchoredAt: '2026-12-01T20:00:00.000Z' },
    key,
  );

describe('saveAnchorHeads (real Postgres)', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase('tc_save_anchor_heads');
  });
  afterAll(async () => db?.drop());

  const stored = async () =>
    (
      await db.pool.query<{ tenant: string; through: string; anchor: { events: { through: number } } }>(
        'SELECT tenant, events_through::text AS through, anchor FROM audit_anchor_heads ORDER BY tenant',
      )
    ).rows.map((r) => [r.tenant, Number(r.through), r.anchor.events.through]);

  it('saves nothing for no anchors', async () => {
    await saveAnchorHeads(pgDatabase(db.pool), []);
    expect(await stored()).toEqual([]);
  });

  it("keeps every tenant's newest anchor as the writer role, replacing the one before, and saving twice is harmless", async () => {
    await asRole(db.pool, 'tokencircuit_writer', (tx) =>
      saveAnchorHeads(tx, [anchorOf('acme', 3), anchorOf('globex', 3)]),
    );
    const newer = anchorOf('acme', 9);
    await asRole(db.pool, 'tokencircuit_writer', (tx) => saveAnchorHeads(tx, [newer]));
    await saveAnchorHeads(pgDatabase(db.pool), [newer]);
    expect(await stored()).toEqual([
      ['acme', 9, 9],
      ['globex', 3, 3],
    ]);
    expect((await readAnchorHeads(pgDatabase(db.pool)))[0]!.anchor).toEqual(newer);
  });

  it("refuses a tenant's session to write another tenant's head (row-level security)", async () => {
    await db.pool.query('GRANT INSERT, UPDATE ON audit_anchor_heads TO tokencircuit_audit');
    try {
      await expect(
        asRole(db.pool, 'tokencircuit_audit', (tx) => saveAnchorHeads(tx, [anchorOf('globex', 50)]), 'acme'),
      ).rejects.toThrow(/row-level security/);
    } finally {
      await db.pool.query('REVOKE INSERT, UPDATE ON audit_anchor_heads FROM tokencircuit_audit');
    }
    expect(await stored()).toEqual([
      ['acme', 9, 9],
      ['globex', 3, 3],
    ]);
  });
});
