import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@tokencircuit/testing';
import { insertFailureState } from '../../../libs/storage/src/spec-support/read-fixtures.js';
import { sessionElsewhere } from '../../../libs/storage/src/spec-support/session-elsewhere.js';
import { readFailureStatePage } from '../../../libs/storage/src/replay/read-failure-state-page.js';

describe('readFailureStatePage (real Postgres)', () => {
  let db: TestDatabase;
  let session: Awaited<ReturnType<typeof sessionElsewhere>>;
  // Byte order ("C"): upper case before lower case, ASCII before multi-byte, whatever the database collation says.
  const byteOrder = ['Zeta', 'alpha', 'beta', 'éclair'];

  beforeAll(async () => {
    db = await createTestDatabase('tc_read_failure_state_page');
    for (const keyId of ['beta', 'éclair', 'Zeta', 'alpha']) {
      await insertFailureState(db.pool, {
        keyId,
        tenant: keyId === 'beta' ? 'globex' : 'acme',
        updatedAt: new Date('2026-03-04T05:06:07.089Z'),
      });
    }
    // Reads name the schema they were given: this session resolves no unqualified name.
    session = await sessionElsewhere(db.url);
  });
  afterAll(async () => {
    await session?.end();
    await db?.drop();
  });

  it("reads every tenant's rows in key-id byte order, a page at a time after the last key", async () => {
    const first = await readFailureStatePage(session, { schema: 'public', after: null, limit: 3 });
    expect(first.map((r) => r.keyId)).toEqual(byteOrder.slice(0, 3));
    const rest = await readFailureStatePage(session, { schema: 'public', after: first.at(-1)!.keyId, limit: 3 });
    expect(rest.map((r) => r.keyId)).toEqual(['éclair']);
    await expect(readFailureStatePage(session, { schema: 'public', after: 'éclair', limit: 3 })).resolves.toEqual([]);
  });

  it('gives every column but key_id, flat columns and the state document alike, updated_at in UTC to the microsecond', async () => {
    const [row] = await readFailureStatePage(session, { schema: 'public', after: null, limit: 1 });
    expect(row!.row).not.toHaveProperty('key_id');
    expect(row!.row).toMatchObject({
      tenant: 'acme',
      status: 'open',
      budget: 2,
      retry_count: 0,
      tool_name: 'sql.query',
      version: 1,
      updated_at: '2026-03-04T05:06:07.089000Z',
    });
    // The document without the key the columns hold (keyId, key): a row written whole and one written without them
    // hold the same state (stateDocumentText).
    expect(row!.row['state']).toEqual({});
    await db.pool.query(`UPDATE failure_state SET state = '{"failures":1}' WHERE key_id = 'Zeta'`);
    const [cut] = await readFailureStatePage(session, { schema: 'public', after: null, limit: 1 });
    await db.pool.query(
      `UPDATE failure_state SET state = '{"keyId":"Zeta","key":{},"failures":1}' WHERE key_id = 'Zeta'`,
    );
    const [whole] = await readFailureStatePage(session, { schema: 'public', after: null, limit: 1 });
    expect(whole!.row).toEqual(cut!.row);
    expect(cut!.row['state']).toEqual({ failures: 1 });
  });

  it('reads nothing of a schema without rows', async () => {
    await db.pool.query('CREATE SCHEMA replay_1; CREATE TABLE replay_1.failure_state (LIKE public.failure_state)');
    await expect(readFailureStatePage(session, { schema: 'replay_1', after: null, limit: 10 })).resolves.toEqual([]);
  });
});
