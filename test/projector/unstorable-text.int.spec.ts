import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentEvent } from '@tokencircuit/contracts';
import { consumedRecord } from '@tokencircuit/contracts/testing';
import { DEFAULT_CONFIG } from '@tokencircuit/governance';
import { ProjectionPipeline, type DeadLetter, type InboundRecord } from '@tokencircuit/projection';
import { pgDatabase } from '@tokencircuit/storage';
import { createTestDatabase, generateTrace, type TestDatabase } from '@tokencircuit/testing';

// Postgres refuses U+0000 in every text type and jsonb refuses an unpaired surrogate's escape: one such
// character in an error message used to fail the whole batch's transaction, again on every redelivery.
describe('text Postgres cannot store, in an accepted event (real Postgres)', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase('tc_unstorable');
  });
  afterAll(async () => db?.drop());

  it('is projected with U+FFFD in its place instead of stalling the partition', async () => {
    const trace = generateTrace({ events: 200, seed: 7 });
    const target = trace.findIndex((e) => e.type === 'tool_call.outcome' && e.data.status === 'failed');
    const failed = trace[target] as Extract<AgentEvent, { type: 'tool_call.outcome' }>;
    const poisoned: AgentEvent = {
      ...failed,
      data: {
        ...failed.data,
        call: { ...failed.data.call, arguments: { 'name\u0000': 'value\udc00' } },
        error: { ...failed.data.error!, message: 'driver said \u0000\u0000 then \ud800' },
      },
    };
    const events = trace.map((e, i) => (i === target ? poisoned : e));
    const records: InboundRecord[] = events.map((event, offset) =>
      consumedRecord(event, { topic: 'agent-events', partition: 0, offset: String(offset) }),
    );
    const parked: DeadLetter[] = [];
    const pipeline = new ProjectionPipeline(
      pgDatabase(db.pool),
      { send: async (letters) => void parked.push(...letters) },
      DEFAULT_CONFIG,
      'unstorable',
    );

    const result = await pipeline.process(records);

    expect(parked).toEqual([]);
    expect(result.projected).toBe(events.length);
    const { rows } = await db.pool.query<{ message: string; args: unknown }>(
      `SELECT tokencircuit_cloud_event(agent_events) -> 'data' -> 'error' ->> 'message' AS message, tokencircuit_cloud_event(agent_events) -> 'data' -> 'call' -> 'arguments' AS args
         FROM agent_events WHERE id = $1`,
      [failed.id],
    );
    expect(rows[0]!.message).toBe('driver said \ufffd\ufffd then \ufffd');
    expect(rows[0]!.args).toEqual({ 'name\ufffd': 'value\ufffd' });
    const receipts = await db.pool.query<{ receipts: string }>(
      `SELECT state -> 'lastReceipts' ->> 0 AS receipts FROM failure_state WHERE state::jsonb -> 'causingEventIds' ? $1`,
      [failed.id],
    );
    expect(receipts.rows.map((r) => r.receipts).join()).toContain('\ufffd');
  });
});
