import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@tokencircuit/testing';
import { insertFailureState, readAs } from '../../../libs/storage/src/spec-support/read-fixtures.js';
import {
  listFailureStates,
  type FailureStateFilter,
  type FailureStateListing,
} from '../../../libs/storage/src/state/list-failure-states.js';

const ANY: FailureStateFilter = {
  blocked: null,
  status: null,
  principal: null,
  tool: null,
  failureClass: null,
  scope: null,
  run: null,
};

describe('listFailureStates', () => {
  let db: TestDatabase;
  const list = (tenant: string, listing: Partial<FailureStateListing> = {}) =>
    readAs(db.pool, tenant, (session) =>
      listFailureStates(session, { filter: ANY, after: null, limit: 100, ...listing }),
    );

  /** Every key of the tenant by walking pages of `limit`. */
  async function walk(tenant: string, limit: number): Promise<string[]> {
    const keys: string[] = [];
    let after: FailureStateListing['after'] = null;
    for (;;) {
      const page = await list(tenant, { after, limit });
      keys.push(...page.items.map((s) => s.keyId));
      if (page.next === null) return keys;
      after = page.next;
    }
  }

  beforeAll(async () => {
    db = await createTestDatabase('tc_list_failure_states');
    const at = (micros: number) => new Date(Date.UTC(2026, 2, 4, 5, 0, 0) + micros / 1000);
    await insertFailureState(db.pool, { tenant: 'tenant-a', keyId: 'k1', updatedAt: at(1_000) });
    await insertFailureState(db.pool, { tenant: 'tenant-a', keyId: 'k2', updatedAt: at(2_000), status: 'blocked' });
    // k3 and k4 changed at the same instant: key_id (descending) breaks the tie, so paging neither skips nor repeats.
    await insertFailureState(db.pool, { tenant: 'tenant-a', keyId: 'k3', updatedAt: at(3_000), status: 'exhausted' });
    await insertFailureState(db.pool, { tenant: 'tenant-a', keyId: 'k4', updatedAt: at(3_000), status: 'resolved' });
    await insertFailureState(db.pool, {
      tenant: 'tenant-a',
      keyId: 'k5',
      scope: 'fleet',
      run: null,
      principal: 'svc-reporting',
      errorClass: 'permission',
      updatedAt: at(4_000),
      state: {
        keyId: 'k5',
        episode: 3,
        openedAt: '2026-03-01T00:00:00.000Z',
        violations: 2,
        lastReceipts: ['older', 'newest'],
      } as never,
    });
    await insertFailureState(db.pool, { tenant: 'tenant-b', keyId: 'b1', updatedAt: at(9_000) });
    // Microseconds the JavaScript Date cannot hold: the position must still be exact.
    await db.pool.query(
      `UPDATE failure_state SET updated_at = updated_at + interval '7 microseconds' WHERE key_id IN ('k3', 'k4')`,
    );
  });
  afterAll(async () => {
    await db?.drop();
  });

  it('is an empty last page for a tenant without states', async () => {
    await expect(list('tenant-c')).resolves.toEqual({ items: [], next: null });
  });

  it("lists the tenant's states newest change first, key id breaking ties, and no other tenant's", async () => {
    const page = await list('tenant-a');
    expect(page.items.map((s) => s.keyId)).toEqual(['k5', 'k4', 'k3', 'k2', 'k1']);
    expect(page.next).toBeNull();
    expect((await list('tenant-b')).items.map((s) => s.keyId)).toEqual(['b1']);
  });

  it('pages through every state exactly once at any page size', async () => {
    for (const limit of [1, 2, 3, 4, 5, 6]) {
      await expect(walk('tenant-a', limit), `limit ${limit}`).resolves.toEqual(['k5', 'k4', 'k3', 'k2', 'k1']);
    }
  });

  it('says there is no next page when the last page is exactly full, and where it is when one row more exists', async () => {
    expect((await list('tenant-a', { limit: 5 })).next).toBeNull();
    expect((await list('tenant-a', { limit: 4 })).next).toEqual({ updatedMicros: '1772600400002000', keyId: 'k2' });
    // k4 changed at a whole microsecond a Date cannot hold: the position keeps it.
    expect((await list('tenant-a', { limit: 2 })).next).toEqual({ updatedMicros: '1772600400003007', keyId: 'k4' });
  });

  it('reads the state document fields, with defaults for rows written before the core recorded them', async () => {
    const [k5, , , , k1] = (await list('tenant-a')).items;
    expect(k5).toMatchObject({
      scope: 'fleet',
      principal: 'svc-reporting',
      failureClass: 'permission',
      episode: 3,
      openedAt: '2026-03-01T00:00:00.000Z',
      violations: 2,
      lastReceipt: 'newest',
    });
    expect(k1).toMatchObject({ episode: 1, openedAt: k1!.updatedAt, violations: 0, lastReceipt: null });
  });

  it('filters by blocking status, status, scope, principal and class', async () => {
    const keys = async (filter: Partial<FailureStateFilter>) =>
      (await list('tenant-a', { filter: { ...ANY, ...filter } })).items.map((s) => s.keyId);
    await expect(keys({ blocked: true })).resolves.toEqual(['k3', 'k2']);
    await expect(keys({ blocked: false })).resolves.toEqual(['k5', 'k4', 'k1']);
    await expect(keys({ status: 'resolved' })).resolves.toEqual(['k4']);
    await expect(keys({ scope: 'fleet', principal: 'svc-reporting', failureClass: 'permission' })).resolves.toEqual([
      'k5',
    ]);
    await expect(keys({ run: 'run-1', tool: 'sql.query', scope: 'run' })).resolves.toEqual(['k4', 'k3', 'k2', 'k1']);
  });
});
