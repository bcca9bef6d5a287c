import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@tokencircuit/testing';
import { pgDatabase } from '../../../libs/storage/src/sql-database.js';
import { insertAgentEvent } from '../../../libs/storage/src/spec-support/read-fixtures.js';
import { agentEventsHorizon } from '../../../libs/storage/src/anchors/agent-events-horizon.js';

describe('agentEventsHorizon (real Postgres)', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase('tc_agent_events_horizon');
  });
  afterAll(async () => db?.drop());

  it('is the last seq once the inserts committed', async () => {
    const session = pgDatabase(db.pool);
    const before = await agentEventsHorizon(session);
    expect(before).not.toBeNull();
    for (const id of ['a', 'b', 'c']) await insertAgentEvent(db.pool, { id, tenant: 'acme' });
    const { rows } = await db.pool.query<{ seq: string }>('SELECT max(seq)::text AS seq FROM agent_events');
    expect(await agentEventsHorizon(session)).toBe(Number(rows[0]!.seq));
    expect(Number(rows[0]!.seq)).toBeGreaterThanOrEqual(before! + 3);
  });

  it('is null while an insert stays uncommitted past the lock timeout', async () => {
    const inserting = await db.pool.connect();
    try {
      await inserting.query('BEGIN');
      await inserting.query(
        `INSERT INTO agent_events (id, tenant, type, occurred_at, cloud_event)
         VALUES ('pending', 'acme', 'dev.tokencircuit.tool_call.outcome.v1', now(), '{}')`,
      );
      expect(await agentEventsHorizon(pgDatabase(db.pool))).toBeNull();
    } finally {
      await inserting.query('ROLLBACK');
      inserting.release();
    }
  });
});
