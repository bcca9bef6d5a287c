import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@tokencircuit/testing';
import { appendInterventions, interventionFor, readAs } from '../../../libs/storage/src/spec-support/read-fixtures.js';
import { HOTTEST_KEYS, listHottestKeys } from '../../../libs/storage/src/fleet/list-hottest-keys.js';

describe('listHottestKeys', () => {
  let db: TestDatabase;
  const at = (minute: number) => new Date(Date.UTC(2026, 2, 4, 5, minute));
  const hottest = (tenant: string, from: Date, to: Date) =>
    readAs(db.pool, tenant, (s) => listHottestKeys(s, { from, to }));

  beforeAll(async () => {
    db = await createTestDatabase('tc_list_hottest_keys');
    const on = (keyId: string, id: string, minute: number, level: 'block' | 'page' = 'block', tenant = 'tenant-a') =>
      interventionFor(tenant, id, { keyId, level, issuedAt: at(minute).toISOString() });
    await appendInterventions(db.pool, [
      on('hot', 'h1', 1),
      on('hot', 'h2', 2),
      on('hot', 'h3', 3, 'page'),
      on('warm-late', 'w1', 4),
      on('warm-late', 'w2', 8),
      on('warm-early', 'e1', 5),
      on('warm-early', 'e2', 6),
      // Outside the window [0, 10): does not count.
      on('hot-later', 'l1', 10),
      on('hot-later', 'l2', 11),
      on('hot-later', 'l3', 12),
      on('hot-later', 'l4', 13),
      on('b-key', 'b1', 1, 'block', 'tenant-b'),
    ]);
    // More keys than the view lists, one intervention each.
    await appendInterventions(
      db.pool,
      Array.from({ length: HOTTEST_KEYS }, (_, i) =>
        interventionFor('tenant-a', `c${i}`, { keyId: `cold-${i}`, issuedAt: at(0).toISOString() }),
      ),
    );
  });
  afterAll(async () => {
    await db?.drop();
  });

  it('is empty for a window without interventions', async () => {
    await expect(hottest('tenant-a', at(30), at(40))).resolves.toEqual([]);
  });

  it('ranks keys by interventions in [from, to), then by the latest, with the latest level; at most HOTTEST_KEYS', async () => {
    const rows = await hottest('tenant-a', at(0), at(10));
    expect(rows).toHaveLength(HOTTEST_KEYS);
    expect(rows.slice(0, 4).map((r) => r.keyId)).toEqual(['hot', 'warm-late', 'warm-early', 'cold-0']);
    expect(rows[0]).toMatchObject({
      interventions: 3,
      level: 'page',
      toolName: 'sql.query',
      failureClass: 'permission',
    });
    expect(new Date(rows[0]!.lastAt).toISOString()).toBe(at(3).toISOString());
  });

  it("ranks only the tenant's interventions (row-level security)", async () => {
    const rows = await hottest('tenant-b', at(0), at(10));
    expect(rows.map((r) => [r.keyId, r.interventions])).toEqual([['b-key', 1]]);
  });
});
