import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@tokencircuit/testing';
import { insertFailureState, readAs } from '../../../libs/storage/src/spec-support/read-fixtures.js';
import { readFailureState } from '../../../libs/storage/src/state/read-failure-state.js';

describe('readFailureState', () => {
  let db: TestDatabase;
  const read = (tenant: string, keyId: string) => readAs(db.pool, tenant, (s) => readFailureState(s, keyId));

  beforeAll(async () => {
    db = await createTestDatabase('tc_read_failure_state');
    await insertFailureState(db.pool, { tenant: 'tenant-a', keyId: 'k-a', status: 'blocked', version: 4 });
    await insertFailureState(db.pool, { tenant: 'tenant-b', keyId: 'k-b' });
  });
  afterAll(async () => {
    await db?.drop();
  });

  it('reads the key with its whole state document', async () => {
    await expect(read('tenant-a', 'k-a')).resolves.toEqual({
      keyId: 'k-a',
      tenant: 'tenant-a',
      scope: 'run',
      status: 'blocked',
      version: 4,
      updatedAt: '2026-03-04T05:06:07.089Z',
      state: { keyId: 'k-a' },
    });
  });

  it("is null for a key that does not exist and for another tenant's key (row-level security)", async () => {
    await expect(read('tenant-a', 'k-none')).resolves.toBeNull();
    await expect(read('tenant-a', 'k-b')).resolves.toBeNull();
    await expect(read('tenant-b', 'k-b')).resolves.toMatchObject({ keyId: 'k-b' });
  });
});
