import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@tokencircuit/testing';
import { insertFailureState, readAs } from '../../../libs/storage/src/spec-support/read-fixtures.js';
import { readKeyEpisode } from '../../../libs/storage/src/state/read-key-episode.js';

describe('readKeyEpisode', () => {
  let db: TestDatabase;
  const read = (tenant: string, keyId: string) => readAs(db.pool, tenant, (s) => readKeyEpisode(s, keyId));

  beforeAll(async () => {
    db = await createTestDatabase('tc_read_key_episode');
    await insertFailureState(db.pool, {
      tenant: 'tenant-a',
      keyId: 'k-third',
      status: 'blocked',
      state: { episode: 3 } as never,
    });
    // Written before the core numbered episodes: the first.
    await insertFailureState(db.pool, { tenant: 'tenant-a', keyId: 'k-unnumbered', status: 'open' });
    await insertFailureState(db.pool, { tenant: 'tenant-b', keyId: 'k-b', state: { episode: 2 } as never });
  });
  afterAll(async () => {
    await db?.drop();
  });

  it("reads the key's current episode and status, 1 when the state has no number", async () => {
    await expect(read('tenant-a', 'k-third')).resolves.toEqual({ episode: 3, status: 'blocked' });
    await expect(read('tenant-a', 'k-unnumbered')).resolves.toEqual({ episode: 1, status: 'open' });
  });

  it("is null for an unknown key and for another tenant's key (row-level security)", async () => {
    await expect(read('tenant-a', 'k-none')).resolves.toBeNull();
    await expect(read('tenant-a', 'k-b')).resolves.toBeNull();
    await expect(read('tenant-b', 'k-b')).resolves.toEqual({ episode: 2, status: 'open' });
  });
});
