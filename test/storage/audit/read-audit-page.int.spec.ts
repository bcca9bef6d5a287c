import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@tokencircuit/testing';
import { appendInterventions, interventionFor, readAs } from '../../../libs/storage/src/spec-support/read-fixtures.js';
import {
  readAuditPage,
  type AuditPageRequest,
  type InterventionFilter,
} from '../../../libs/storage/src/audit/read-audit-page.js';

const ANY: InterventionFilter = {
  from: null,
  to: null,
  failureClass: null,
  level: null,
  tool: null,
  principal: null,
  run: null,
};

describe('readAuditPage', () => {
  let db: TestDatabase;
  const page = (tenant: string, request: Partial<AuditPageRequest> = {}) =>
    readAs(db.pool, tenant, (session) =>
      readAuditPage(session, { filter: ANY, order: 'desc', afterSeq: null, limit: 100, ...request }),
    );
  const ids = async (tenant: string, request: Partial<AuditPageRequest> = {}) =>
    (await page(tenant, request)).items.map((r) => r.id);

  beforeAll(async () => {
    db = await createTestDatabase('tc_read_audit_page');
    // Twelve rows, so a text sort of seq (9 after 12) would show; tenant-b's rows interleave with tenant-a's.
    const rows = Array.from({ length: 12 }, (_, i) => {
      const n = i + 1;
      return interventionFor('tenant-a', `a${String(n).padStart(2, '0')}`, {
        level: n % 3 === 0 ? 'page' : 'block',
        run: n <= 6 ? 'run-1' : 'run-2',
        issuedAt: new Date(Date.UTC(2026, 2, 4, 5, n)).toISOString(),
      });
    });
    await appendInterventions(db.pool, rows.slice(0, 6));
    await appendInterventions(db.pool, [interventionFor('tenant-b', 'b01')]);
    await appendInterventions(db.pool, rows.slice(6));
  });
  afterAll(async () => {
    await db?.drop();
  });

  it('is an empty last page for a tenant without interventions', async () => {
    await expect(page('tenant-c')).resolves.toEqual({ items: [], more: false });
  });

  it("lists only the tenant's rows, newest first by seq, or oldest first", async () => {
    const all = Array.from({ length: 12 }, (_, i) => `a${String(i + 1).padStart(2, '0')}`);
    await expect(ids('tenant-a')).resolves.toEqual([...all].reverse());
    await expect(ids('tenant-a', { order: 'asc' })).resolves.toEqual(all);
    await expect(ids('tenant-b')).resolves.toEqual(['b01']);
  });

  it('says whether rows follow: not when the page is exactly full, yes when one more exists', async () => {
    await expect(page('tenant-a', { limit: 12 })).resolves.toMatchObject({ more: false });
    const eleven = await page('tenant-a', { limit: 11 });
    expect(eleven.more).toBe(true);
    expect(eleven.items).toHaveLength(11);
    expect((await page('tenant-a', { limit: 1 })).items.map((r) => r.id)).toEqual(['a12']);
  });

  it('continues after a seq in either order, and past the end is an empty last page', async () => {
    const first = await page('tenant-a', { order: 'asc', limit: 5 });
    const next = await ids('tenant-a', { order: 'asc', limit: 5, afterSeq: first.items.at(-1)!.seq });
    expect(next).toEqual(['a06', 'a07', 'a08', 'a09', 'a10']);
    const newest = await page('tenant-a', { limit: 3 });
    await expect(ids('tenant-a', { limit: 3, afterSeq: newest.items.at(-1)!.seq })).resolves.toEqual([
      'a09',
      'a08',
      'a07',
    ]);
    const last = (await page('tenant-a', { limit: 1 })).items[0]!;
    await expect(page('tenant-a', { order: 'asc', afterSeq: last.seq })).resolves.toEqual({ items: [], more: false });
  });

  it('filters by time window [from, to), level and run', async () => {
    await expect(
      ids('tenant-a', {
        order: 'asc',
        filter: { ...ANY, from: '2026-03-04T05:03:00Z', to: '2026-03-04T05:06:00Z' },
      }),
    ).resolves.toEqual(['a03', 'a04', 'a05']);
    await expect(ids('tenant-a', { order: 'asc', filter: { ...ANY, level: 'page' } })).resolves.toEqual([
      'a03',
      'a06',
      'a09',
      'a12',
    ]);
    await expect(ids('tenant-a', { order: 'asc', filter: { ...ANY, run: 'run-2', level: 'page' } })).resolves.toEqual([
      'a09',
      'a12',
    ]);
    await expect(ids('tenant-a', { filter: { ...ANY, tool: 'http.get' } })).resolves.toEqual([]);
  });

  it('reads the record as stored: chain links, causes, and the justification out of the artifact', async () => {
    const [a01, a02] = (await page('tenant-a', { order: 'asc', limit: 2 })).items;
    expect(a01).toMatchObject({
      id: 'a01',
      tenant: 'tenant-a',
      failureClass: 'permission',
      keyId: 'fleet:tenant-a:svc-reporting:sql_namespace:finance',
      causingEventIds: ['evt-a01'],
      safetyJustification: 'A denial is a fact about the principal.',
      issuedAt: '2026-03-04T05:01:00.000Z',
      prevHash: null,
    });
    expect(typeof a01!.seq).toBe('number');
    expect(a02!.prevHash).toBe(a01!.hash);
  });
});
