import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@tokencircuit/testing';
import { pgSession } from '../../../libs/storage/src/sql-database.js';
import { setSearchPath } from '../../../libs/storage/src/replay/set-search-path.js';

describe('setSearchPath (real Postgres)', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase('tc_set_search_path');
    await db.pool.query(
      "CREATE SCHEMA replay_1; CREATE TABLE replay_1.agent_events (marker text); INSERT INTO replay_1.agent_events VALUES ('replay')",
    );
  });
  afterAll(async () => db?.drop());

  it("moves the session's unqualified names to the schema, and back", async () => {
    const client = await db.pool.connect();
    try {
      const session = pgSession(client);
      await setSearchPath(session, 'replay_1');
      expect((await session.query('SELECT marker FROM agent_events')).rows).toEqual([{ marker: 'replay' }]);
      // Only that schema: the live tables are out of reach unqualified.
      await expect(session.query('SELECT 1 FROM failure_state')).rejects.toMatchObject({ code: '42P01' });
      await setSearchPath(session, 'public');
      expect((await session.query('SELECT count(*)::int AS n FROM agent_events')).rows).toEqual([{ n: 0 }]);
    } finally {
      await client.query('RESET search_path');
      client.release();
    }
  });

  it('refuses a name that is not plain', async () => {
    await expect(setSearchPath(pgSession(db.pool), 'public, replay_1')).rejects.toThrow(/not a plain schema name/);
  });
});
