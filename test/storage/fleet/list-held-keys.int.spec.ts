import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@tokencircuit/testing';
import {
  appendInterventions,
  insertFailureState,
  interventionFor,
  readAs,
} from '../../../libs/storage/src/spec-support/read-fixtures.js';
import { listHeldKeys } from '../../../libs/storage/src/fleet/list-held-keys.js';

describe('listHeldKeys', () => {
  let db: TestDatabase;
  const held = (tenant: string, limit = 500) => readAs(db.pool, tenant, (s) => listHeldKeys(s, limit));
  const keys = async (tenant: string, limit?: number) => (await held(tenant, limit)).rows.map((r) => r.keyId);
  const at = (minute: number) => new Date(Date.UTC(2026, 2, 4, 5, minute)).toISOString();

  beforeAll(async () => {
    db = await createTestDatabase('tc_list_held_keys');
    const a = 'tenant-a';
    for (const keyId of ['blocked-old', 'blocked-new', 'paged', 'advised-now', 'resolved', 'no-intervention']) {
      await insertFailureState(db.pool, {
        tenant: a,
        keyId,
        status: keyId === 'resolved' ? 'resolved' : 'blocked',
        state: (keyId === 'paged' ? { acknowledgedSituation: 'seen' } : {}) as never,
      });
    }
    await insertFailureState(db.pool, { tenant: 'tenant-b', keyId: 'b-blocked', status: 'blocked' });
    const on = (keyId: string, id: string, level: 'advise' | 'block' | 'page', minute: number, tenant = a) =>
      interventionFor(tenant, id, { keyId, level, issuedAt: at(minute) });
    await appendInterventions(db.pool, [
      on('blocked-old', 'i1', 'block', 1),
      on('blocked-new', 'i2', 'advise', 2),
      on('blocked-new', 'i3', 'block', 5),
      on('paged', 'i4', 'page', 3),
      // Its latest intervention only advises: no longer held, though an earlier one blocked.
      on('advised-now', 'i5', 'block', 4),
      on('advised-now', 'i6', 'advise', 6),
      on('resolved', 'i7', 'block', 7),
      on('b-blocked', 'ib', 'block', 8, 'tenant-b'),
    ]);
  });
  afterAll(async () => {
    await db?.drop();
  });

  it('is empty with a total of 0 for a tenant holding nothing', async () => {
    await expect(held('tenant-c')).resolves.toEqual({ rows: [], total: 0 });
  });

  it('lists unresolved keys whose latest intervention blocks or pages: pages first, then newest', async () => {
    await expect(keys('tenant-a')).resolves.toEqual(['paged', 'blocked-new', 'blocked-old']);
    await expect(keys('tenant-b')).resolves.toEqual(['b-blocked']);
  });

  it('carries the latest intervention, the count of all of them, and whether the situation was acknowledged', async () => {
    const { rows } = await held('tenant-a');
    const byKey = Object.fromEntries(rows.map((r) => [r.keyId, r]));
    expect(byKey['blocked-new']).toMatchObject({
      interventionId: 'i3',
      level: 'block',
      nextAction: 'stop_request_authorization',
      interventions: 2,
      acknowledged: false,
      errorClass: 'transient',
      status: 'blocked',
    });
    expect(new Date(byKey['blocked-new']!.issuedAt).toISOString()).toBe(at(5));
    expect(byKey['paged']).toMatchObject({ interventionId: 'i4', level: 'page', acknowledged: true, interventions: 1 });
  });

  it('lists at most `limit` keys and still counts them all', async () => {
    await expect(held('tenant-a', 1)).resolves.toMatchObject({ rows: [{ keyId: 'paged' }], total: 3 });
    await expect(held('tenant-a', 3)).resolves.toMatchObject({ total: 3 });
  });
});
