import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@tokencircuit/testing';
import { insertFailureState } from '../../../libs/storage/src/spec-support/read-fixtures.js';
import { sessionElsewhere } from '../../../libs/storage/src/spec-support/session-elsewhere.js';
import { readFailureStateRows } from '../../../libs/storage/src/replay/read-failure-state-rows.js';

describe('readFailureStateRows (real Postgres)', () => {
  let db: TestDatabase;
  let session: Awaited<ReturnType<typeof sessionElsewhere>>;

  beforeAll(async () => {
    db = await createTestDatabase('tc_read_failure_state_rows');
    await insertFailureState(db.pool, { keyId: 'k-1', tenant: 'acme', status: 'exhausted', retryCount: 2 });
    await insertFailureState(db.pool, { keyId: 'k-2', tenant: 'globex' });
    await insertFailureState(db.pool, { keyId: 'k-3', tenant: 'acme' });
    session = await sessionElsewhere(db.url);
  });
  afterAll(async () => {
    await session?.end();
    await db?.drop();
  });

  it('reads the rows of the keys asked for, keyed by key id, every column but key_id', async () => {
    const rows = await readFailureStateRows(session, 'public', ['k-2', 'k-1', 'k-missing']);
    expect([...rows.keys()].sort()).toEqual(['k-1', 'k-2']);
    expect(rows.get('k-1')).toMatchObject({ tenant: 'acme', status: 'exhausted', retry_count: 2 });
    expect(rows.get('k-1')).not.toHaveProperty('key_id');
    expect(rows.get('k-2')).toMatchObject({ tenant: 'globex', status: 'open' });
  });

  it('reads nothing for no keys', async () => {
    await expect(readFailureStateRows(session, 'public', [])).resolves.toEqual(new Map());
  });
});
