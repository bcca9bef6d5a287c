import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@tokencircuit/testing';
import { pgDatabase } from '../../../libs/storage/src/sql-database.js';
import { asRole } from '../../../libs/storage/src/spec-support/as-role.js';
import { generateAnchorKeyPair, parseAnchorSigningKey } from '../../../libs/storage/src/anchors/anchor-key.js';
import { AnchorError, signAnchor } from '../../../libs/storage/src/anchors/audit-anchor.js';
import { readAnchorHeads } from '../../../libs/storage/src/anchors/read-anchor-heads.js';
import { saveAnchorHeads } from '../../../libs/storage/src/anchors/save-anchor-heads.js';

const key = parseAnchorSigningKey(generateAnchorKeyPair().privateKeyPem);
const anchorOf = (tenant: string, through: number) =>
  signAnchor(
    { tenant, chain: null, events: { through, count: 1, digest: null }, anchoredAt: '2026-12-01T20:00:00.000Z' },
    key,
  );

describe('readAnchorHeads (real Postgres)', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase('tc_read_anchor_heads');
  });
  afterAll(async () => db?.drop());

  it('reads nothing before the first anchor', async () => {
    expect(await readAnchorHeads(pgDatabase(db.pool))).toEqual([]);
  });

  it("reads every tenant's anchor and position as the writer, and only its own under a tenant's setting", async () => {
    // Beyond 2^31: the position is a bigint column.
    const acme = anchorOf('acme', 3_000_000_000);
    const globex = anchorOf('globex', 7);
    await saveAnchorHeads(pgDatabase(db.pool), [acme, globex]);
    expect(await asRole(db.pool, 'tokencircuit_writer', readAnchorHeads)).toEqual([
      { anchor: acme, eventsThrough: 3_000_000_000 },
      { anchor: globex, eventsThrough: 7 },
    ]);
    expect(await asRole(db.pool, 'tokencircuit_audit', readAnchorHeads, 'globex')).toEqual([
      { anchor: globex, eventsThrough: 7 },
    ]);
  });

  it('throws on a stored anchor that is not one', async () => {
    await db.pool.query(
      `INSERT INTO audit_anchor_heads (tenant, anchor, events_through) VALUES ('broken', '{"v": 2}', 1)`,
    );
    await expect(readAnchorHeads(pgDatabase(db.pool))).rejects.toThrow(AnchorError);
  });
});
