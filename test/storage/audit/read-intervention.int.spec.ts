import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@tokencircuit/testing';
import { appendInterventions, interventionFor, readAs } from '../../../libs/storage/src/spec-support/read-fixtures.js';
import { readIntervention } from '../../../libs/storage/src/audit/read-intervention.js';

describe('readIntervention', () => {
  let db: TestDatabase;
  const read = (tenant: string, id: string) => readAs(db.pool, tenant, (s) => readIntervention(s, id));

  beforeAll(async () => {
    db = await createTestDatabase('tc_read_intervention');
    await appendInterventions(db.pool, [interventionFor('tenant-a', 'i-a'), interventionFor('tenant-b', 'i-b')]);
  });
  afterAll(async () => {
    await db?.drop();
  });

  it('reads the intervention with its whole artifact', async () => {
    await expect(read('tenant-a', 'i-a')).resolves.toMatchObject({
      id: 'i-a',
      tenant: 'tenant-a',
      level: 'block',
      safetyJustification: 'A denial is a fact about the principal.',
      artifact: { failure_class: 'permission', safety_justification: 'A denial is a fact about the principal.' },
    });
  });

  it("is null for an unknown id and for another tenant's intervention (row-level security)", async () => {
    await expect(read('tenant-a', 'i-none')).resolves.toBeNull();
    await expect(read('tenant-a', 'i-b')).resolves.toBeNull();
    await expect(read('tenant-b', 'i-b')).resolves.toMatchObject({ id: 'i-b' });
  });
});
