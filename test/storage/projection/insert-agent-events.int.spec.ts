import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentEventToCloudEvent, eventIdentity, type AgentEvent } from '@tokencircuit/contracts';
import { createTestDatabase, generateTrace, type TestDatabase } from '@tokencircuit/testing';
import { pgDatabase } from '../../../libs/storage/src/sql-database.js';
import {
  agentEventRows,
  insertAgentEvents,
  type PositionedAgentEvent,
} from '../../../libs/storage/src/projection/insert-agent-events.js';

const at = (event: AgentEvent, offset: string): PositionedAgentEvent => ({
  event,
  cloudEvent: agentEventToCloudEvent(event),
  topic: 'events',
  partition: 2,
  offset,
});

describe('insertAgentEvents (real Postgres)', () => {
  let test: TestDatabase;
  beforeAll(async () => {
    test = await createTestDatabase('storage_insert_events');
  });
  afterAll(async () => {
    await test?.drop();
  });

  it('stores each event once with its body and position, in order, and reports only the new ones', async () => {
    const db = pgDatabase(test.pool);
    const [a, b, c] = generateTrace({ events: 3, seed: 4 });
    const first = await insertAgentEvents(db, agentEventRows([at(a!, '10'), at(b!, '11')]));
    expect(first).toEqual(new Set([eventIdentity(a!), eventIdentity(b!)]));
    // b again (a redelivery at another offset) and c: only c is new.
    const second = await insertAgentEvents(db, agentEventRows([at(b!, '12'), at(c!, '')]));
    expect(second).toEqual(new Set([eventIdentity(c!)]));

    const { rows } = await test.pool.query(
      'SELECT id, type, kafka_partition, kafka_offset::text AS kafka_offset, cloud_event FROM agent_events ORDER BY seq',
    );
    expect(rows).toEqual([
      { id: a!.id, type: a!.type, kafka_partition: 2, kafka_offset: '10', cloud_event: agentEventToCloudEvent(a!) },
      { id: b!.id, type: b!.type, kafka_partition: 2, kafka_offset: '11', cloud_event: agentEventToCloudEvent(b!) },
      { id: c!.id, type: c!.type, kafka_partition: 2, kafka_offset: null, cloud_event: agentEventToCloudEvent(c!) },
    ]);
    expect(await insertAgentEvents(db, agentEventRows([]))).toEqual(new Set());
  });

  it('stores bodies with multi-byte characters and an escaped record separator exactly', async () => {
    const db = pgDatabase(test.pool);
    const [generated] = generateTrace({ events: 1, seed: 9 });
    const event = { ...generated!, id: `${generated!.id}-multi-byte` } as AgentEvent;
    const cloudEvent = { ...agentEventToCloudEvent(event), note: 'naïve — 東京 🚀 \u001e \u2028 end' };
    await insertAgentEvents(db, agentEventRows([{ ...at(event, '20'), cloudEvent }]));
    const { rows } = await test.pool.query('SELECT cloud_event FROM agent_events WHERE id = $1', [event.id]);
    expect(rows).toEqual([{ cloud_event: cloudEvent }]);
  });
});
