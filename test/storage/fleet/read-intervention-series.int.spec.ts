import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@tokencircuit/testing';
import { appendInterventions, interventionFor, readAs } from '../../../libs/storage/src/spec-support/read-fixtures.js';
import { readInterventionSeries } from '../../../libs/storage/src/fleet/read-intervention-series.js';

describe('readInterventionSeries', () => {
  let db: TestDatabase;
  const at = (minute: number, second = 0) => new Date(Date.UTC(2026, 2, 4, 5, minute, second));
  const series = async (tenant: string, from: Date, to: Date, bucketSeconds = 300) =>
    (await readAs(db.pool, tenant, (s) => readInterventionSeries(s, { from, to, bucketSeconds }))).map((p) => ({
      ...p,
      bucket: new Date(p.bucket).toISOString(),
    }));

  beforeAll(async () => {
    db = await createTestDatabase('tc_read_intervention_series');
    const on = (id: string, minute: number, second: number, overrides = {}, tenant = 'tenant-a') =>
      interventionFor(tenant, id, { issuedAt: at(minute, second).toISOString(), ...overrides });
    await appendInterventions(db.pool, [
      on('before', 4, 59),
      on('start', 5, 0),
      on('same-bucket', 9, 59),
      on('paged', 7, 0, { level: 'page' }),
      on('transient', 8, 0, { failureClass: 'transient', nextAction: 'retry_with_backoff' }),
      on('next-bucket', 10, 0),
      on('at-end', 15, 0),
      on('b', 6, 0, {}, 'tenant-b'),
    ]);
  });
  afterAll(async () => {
    await db?.drop();
  });

  it('is empty for a window without interventions', async () => {
    await expect(series('tenant-a', at(30), at(40))).resolves.toEqual([]);
  });

  it('counts [from, to) per bucket, level and class, buckets aligned to from, in order', async () => {
    await expect(series('tenant-a', at(5), at(15))).resolves.toEqual([
      { bucket: at(5).toISOString(), level: 'block', failureClass: 'permission', count: 2 },
      { bucket: at(5).toISOString(), level: 'block', failureClass: 'transient', count: 1 },
      { bucket: at(5).toISOString(), level: 'page', failureClass: 'permission', count: 1 },
      { bucket: at(10).toISOString(), level: 'block', failureClass: 'permission', count: 1 },
    ]);
  });

  it("counts only the tenant's interventions (row-level security)", async () => {
    await expect(series('tenant-b', at(5), at(15))).resolves.toEqual([
      { bucket: at(5).toISOString(), level: 'block', failureClass: 'permission', count: 1 },
    ]);
  });
});
