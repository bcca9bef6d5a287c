import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentEventToCloudEvent, identityOfEvent, type AgentEvent } from '@tokencircuit/contracts';
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
    expect(first).toEqual({ inserted: new Set([identityOfEvent(a!), identityOfEvent(b!)]), conflicts: new Map() });
    // b again (a redelivery at another offset) and c: only c is new.
    const second = await insertAgentEvents(db, agentEventRows([at(b!, '12'), at(c!, '')]));
    expect(second).toEqual({ inserted: new Set([identityOfEvent(c!)]), conflicts: new Map() });

    const { rows } = await test.pool.query(
      `SELECT id, type, kafka_partition, kafka_offset::text AS kafka_offset, tokencircuit_cloud_event(agent_events) AS cloud_event
         FROM agent_events ORDER BY seq`,
    );
    expect(rows).toEqual([
      { id: a!.id, type: a!.type, kafka_partition: 2, kafka_offset: '10', cloud_event: agentEventToCloudEvent(a!) },
      { id: b!.id, type: b!.type, kafka_partition: 2, kafka_offset: '11', cloud_event: agentEventToCloudEvent(b!) },
      { id: c!.id, type: c!.type, kafka_partition: 2, kafka_offset: null, cloud_event: agentEventToCloudEvent(c!) },
    ]);
    expect(await insertAgentEvents(db, agentEventRows([]))).toEqual({ inserted: new Set(), conflicts: new Map() });
  });

  it('stores bodies with multi-byte characters and an escaped record separator exactly', async () => {
    const db = pgDatabase(test.pool);
    const [generated] = generateTrace({ events: 1, seed: 9 });
    const event = { ...generated!, id: `${generated!.id}-multi-byte` } as AgentEvent;
    const cloudEvent = { ...agentEventToCloudEvent(event), note: 'naïve — 東京 🚀 \u001e \u2028 end' };
    await insertAgentEvents(db, agentEventRows([{ ...at(event, '20'), cloudEvent }]));
    const { rows } = await test.pool.query(
      'SELECT tokencircuit_cloud_event(agent_events) AS cloud_event FROM agent_events WHERE id = $1',
      [event.id],
    );
    expect(rows).toEqual([{ cloud_event: cloudEvent }]);
  });

  // CloudEvents: an id is unique within its source (migration 0035).
  it('stores the same id from another source as another event, and reports another body under a known one as a conflict with the stored digest', async () => {
    const db = pgDatabase(test.pool);
    const [generated] = generateTrace({ events: 1, seed: 21 });
    const event = generated as Extract<AgentEvent, { type: 'tool_call.requested' | 'tool_call.outcome' }>;
    expect(['tool_call.requested', 'tool_call.outcome']).toContain(event.type);
    const otherAgent = {
      ...event,
      data: { ...event.data, call: { ...event.data.call, agent: 'another-agent' } },
    } as AgentEvent;
    const otherBody = { ...event, time: '2026-02-02T00:00:00.000Z' } as AgentEvent;

    const first = await insertAgentEvents(db, agentEventRows([at(event, '30'), at(otherAgent, '31')]));
    expect(first.inserted).toEqual(new Set([identityOfEvent(event), identityOfEvent(otherAgent)]));

    // The same body with a new trace context is a redelivery; another body is a conflict.
    const retried = {
      ...at(event, '32'),
      cloudEvent: agentEventToCloudEvent(event, `00-${'a'.repeat(32)}-${'b'.repeat(16)}-01`),
    };
    const second = await insertAgentEvents(db, agentEventRows([retried, at(otherBody, '33')]));
    expect(second.inserted).toEqual(new Set());
    const { rows } = await test.pool.query<{ digest: string; n: number }>(
      `SELECT tokencircuit_event_digest(tokencircuit_cloud_event(agent_events)) AS digest, count(*) OVER ()::int AS n
         FROM agent_events WHERE tenant = $1 AND id = $2 AND source = $3`,
      [event.tenant, event.id, agentEventToCloudEvent(event).source],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]!.digest).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(second.conflicts).toEqual(new Map([[identityOfEvent(otherBody), rows[0]!.digest]]));
    const stored = await test.pool.query(
      'SELECT tokencircuit_cloud_event(agent_events) AS cloud_event FROM agent_events WHERE id = $1 ORDER BY seq',
      [event.id],
    );
    expect(stored.rows.map((r) => r.cloud_event)).toEqual([
      agentEventToCloudEvent(event),
      agentEventToCloudEvent(otherAgent),
    ]);
  });
  // Migration 0048: the envelope the columns repeat is not stored twice, and every reader gets the text back.
  it('stores a CloudEvent cut after the envelope its columns repeat where they rebuild it, whole otherwise, and reads back the very text it was given', async () => {
    const db = pgDatabase(test.pool);
    const trace = generateTrace({ events: 600, seed: 48 }).map(
      (event) => ({ ...event, id: `${event.id}-0048` }) as AgentEvent,
    );
    const traced = (event: AgentEvent, offset: string): PositionedAgentEvent => ({
      ...at(event, offset),
      cloudEvent: agentEventToCloudEvent(event, `00-${'c'.repeat(32)}-${'d'.repeat(16)}-01`),
    });
    const [plain, offsetTime, quoted, unicode] = generateTrace({ events: 4, seed: 480 });
    const edges: PositionedAgentEvent[] = [
      traced({ ...plain!, id: 'edge-traced' } as AgentEvent, '0'),
      at({ ...offsetTime!, id: 'edge-offset-time', time: '2026-11-01T02:00:00.5+02:00' } as AgentEvent, '1'),
      at({ ...quoted!, id: 'edge-"quoted"\\id' } as AgentEvent, '2'),
      at({ ...unicode!, id: 'edge-東京-🚀' } as AgentEvent, '3'),
      {
        ...at({ ...plain!, id: 'edge-extra-member' } as AgentEvent, '4'),
        cloudEvent: { ...agentEventToCloudEvent(plain!), id: 'edge-extra-member', subject: 'x' },
      },
    ];
    const events = [
      ...trace.map((event, i) => (i % 3 === 0 ? traced(event, String(100 + i)) : at(event, String(100 + i)))),
      ...edges,
    ];
    await insertAgentEvents(db, agentEventRows(events));

    const { rows } = await test.pool.query<{ id: string; text: string; cut: boolean }>(
      `SELECT id, tokencircuit_cloud_event(agent_events)::text AS text, cloud_event IS NULL AS cut
         FROM agent_events WHERE id = ANY($1::text[])`,
      [events.map((e) => e.event.id)],
    );
    const byId = new Map(rows.map((r) => [r.id, r]));
    expect(byId.size).toBe(events.length);
    for (const e of events) expect(byId.get(e.event.id)!.text).toBe(JSON.stringify(e.cloudEvent));
    // Every event of the trace is cut (its ids and times are plain); an edge only where its columns rebuild it.
    expect(trace.every((e) => byId.get(e.id)!.cut)).toBe(true);
    expect(Object.fromEntries(edges.map((e) => [e.event.id, byId.get(e.event.id)!.cut]))).toEqual({
      'edge-traced': true,
      'edge-offset-time': false,
      'edge-"quoted"\\id': false,
      'edge-東京-🚀': false,
      'edge-extra-member': true,
    });
  });
  it('reads back exactly the text it was given, whatever the identifiers, the run and the time (property)', async () => {
    const db = pgDatabase(test.pool);
    const template = generateTrace({ events: 2, seed: 6 }).find((e) => e.type === 'tool_call.outcome') as Extract<
      AgentEvent,
      { type: 'tool_call.outcome' }
    >;
    // Postgres text holds no U+0000 (the projector's storableJson replaces it before this insert).
    const text = fc
      .oneof(
        fc.string({ minLength: 1, maxLength: 12 }),
        fc.string({ minLength: 1, maxLength: 12, unit: 'binary-ascii' }),
        fc.string({ minLength: 1, maxLength: 12, unit: 'grapheme' }),
      )
      .filter((t) => !t.includes('\u0000'));
    const time = fc.oneof(
      fc
        .date({
          min: new Date('0001-01-01T00:00:00.000Z'),
          max: new Date('9999-12-31T23:59:59.999Z'),
          noInvalidDate: true,
        })
        .map((d) => d.toISOString()),
      fc.constantFrom('2026-11-01T02:00:00.5+02:00', '2026-11-01T00:00:00Z', '2026-11-01T00:00:00.123456Z'),
    );
    let n = 0;
    const forms = { cut: 0, whole: 0 };
    await fc.assert(
      fc.asyncProperty(
        fc.record({ id: text, tenant: text, agent: text, run: fc.option(text), time, traced: fc.boolean() }),
        async (v) => {
          n += 1;
          const event = {
            ...template,
            id: `property-${n}-${v.id}`,
            tenant: v.tenant,
            time: v.time,
            data: { ...template.data, call: { ...template.data.call, agent: v.agent, run: v.run } },
          } as AgentEvent;
          const positioned = {
            ...at(event, String(n)),
            cloudEvent: agentEventToCloudEvent(
              event,
              v.traced ? `00-${'a'.repeat(32)}-${'b'.repeat(16)}-01` : undefined,
            ),
          };
          await insertAgentEvents(db, agentEventRows([positioned]));
          const { rows } = await test.pool.query<{ text: string; cut: boolean }>(
            `SELECT tokencircuit_cloud_event(agent_events)::text AS text, cloud_event IS NULL AS cut FROM agent_events
              WHERE tenant = $1 AND id = $2 AND source = $3`,
            [event.tenant, event.id, (positioned.cloudEvent as { source: string }).source],
          );
          expect(rows.map((r) => r.text)).toEqual([JSON.stringify(positioned.cloudEvent)]);
          forms[rows[0]!.cut ? 'cut' : 'whole'] += 1;
        },
      ),
      {
        numRuns: 150,
        // One of each form whatever the seed: random identifiers are rarely all plain, so a run may draw no cut row.
        examples: [
          [{ id: 'plain', tenant: 'acme', agent: 'bot', run: 'run-1', time: '2026-11-01T00:00:00.000Z', traced: true }],
          [
            {
              id: 'plain',
              tenant: 'acme',
              agent: 'bot',
              run: null,
              time: '2026-11-01T02:00:00.5+02:00',
              traced: false,
            },
          ],
        ],
      },
    );
    // Both forms were read back, not one of them only.
    expect(forms.cut).toBeGreaterThan(0);
    expect(forms.whole).toBeGreaterThan(0);
  });
});
