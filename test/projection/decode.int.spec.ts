import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  agentEventToCloudEvent,
  CE_CONTENT_TYPE_STRUCTURED,
  parseAgentEvent,
  type AgentEvent,
} from '@tokencircuit/contracts';
import { consumedRecord, resolution } from '@tokencircuit/contracts/testing';
import { DEFAULT_CONFIG, redactEvent } from '@tokencircuit/governance';
import { pgDatabase, type SqlDatabase } from '@tokencircuit/storage';
import { createTestDatabase, generateTrace, type TestDatabase } from '@tokencircuit/testing';
import { acceptedEvent, decode, decodeCloudEvent, type Decoded } from '../../libs/projection/src/decode.js';
import type { InboundRecord } from '../../libs/projection/src/inbound-record.js';
import type { PositionedEvent } from '../../libs/projection/src/positioned-event.js';
import { applyChunk } from '../../libs/projection/src/apply-chunk.js';

const TOPIC = 'decode-spec';
const SECRET = 'ghp_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789';

const record = (event: AgentEvent, mode: 'binary' | 'structured', offset: number): InboundRecord =>
  consumedRecord(event, { topic: TOPIC, partition: 0, offset: String(offset) }, mode);

const ok = (decoded: Decoded): PositionedEvent => {
  if (!decoded.ok) throw new Error(`refused: ${decoded.deadLetter.code}: ${decoded.deadLetter.reason}`);
  return decoded.event;
};

describe('decode: bytes or CloudEvent JSON → one typed, validated, redacted event (real Postgres)', () => {
  let test: TestDatabase;
  let db: SqlDatabase;
  beforeAll(async () => {
    test = await createTestDatabase('projection_decode');
    db = pgDatabase(test.pool);
  });
  afterAll(async () => {
    await test?.drop();
  });

  it('binary, structured and the stored row read back decode to the same event, and Postgres stores it once', async () => {
    const trace = generateTrace({ events: 40, seed: 21 });
    for (const [i, event] of trace.entries()) {
      const at = { topic: TOPIC, partition: 0, offset: String(i) };
      const binary = ok(decode(record(event, 'binary', i)));
      const structured = ok(decode(record(event, 'structured', i)));
      expect(structured).toEqual(binary);
      expect(binary).toEqual(acceptedEvent(redactEvent(event), at));
      await db.transaction((tx) => applyChunk(tx, DEFAULT_CONFIG, { group: 'decode', topic: TOPIC, events: [binary] }));
      const { rows } = await db.query<{ cloud_event: unknown; kafka_offset: string }>(
        'SELECT tokencircuit_cloud_event(agent_events) AS cloud_event, kafka_offset::text AS kafka_offset FROM agent_events WHERE tenant = $1 AND id = $2',
        [event.tenant, event.id],
      );
      expect(rows).toEqual([{ cloud_event: binary.cloudEvent, kafka_offset: String(i) }]);
      // Replay reads the stored CloudEvent back: the same event again, at the replay's own position.
      expect(ok(decodeCloudEvent(rows[0]!.cloud_event, at))).toEqual(binary);
    }
  });

  it('redacts once, whichever way the event came in; what Postgres stores holds no secret', async () => {
    const event = parseAgentEvent(
      resolution(
        'acme',
        { keyId: 'k-1', resolution: 'acknowledged', by: 'op', reason: `rotated ${SECRET} after the leak` },
        { id: 'resolution-with-secret', time: '2026-11-01T00:00:00.000Z' },
      ),
    );
    const fromBytes = ok(decode(record(event, 'binary', 0)));
    const fromJson = ok(decodeCloudEvent(agentEventToCloudEvent(event), { topic: TOPIC, partition: 1, offset: '0' }));
    for (const decoded of [fromBytes, fromJson]) {
      expect(JSON.stringify(decoded)).not.toContain(SECRET);
      expect(decoded.event.type === 'operator.resolution' && decoded.event.data.reason).toMatch(
        /^rotated .+ after the leak$/,
      );
    }
    await db.transaction((tx) =>
      applyChunk(tx, DEFAULT_CONFIG, { group: 'decode', topic: TOPIC, events: [{ ...fromBytes, partition: 5 }] }),
    );
    const { rows } = await db.query<{ body: string }>(
      `SELECT tokencircuit_cloud_event(agent_events)::text AS body FROM agent_events WHERE id = 'resolution-with-secret'`,
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]!.body).not.toContain(SECRET);
  });

  it('an accepted event with text Postgres cannot store is stored with U+FFFD in its place, not refused', async () => {
    const [event] = generateTrace({ events: 1, seed: 22 });
    const call = event!.type === 'tool_call.requested' ? event!.data.call : null;
    expect(call).not.toBeNull();
    const hostile = {
      ...event!,
      id: 'unstorable',
      data: { call: { ...call!, agent: 'a\u0000b\ud800' } },
    } as AgentEvent;
    const accepted = acceptedEvent(hostile, { topic: TOPIC, partition: 3, offset: '0' });
    await db.transaction((tx) => applyChunk(tx, DEFAULT_CONFIG, { group: 'decode', topic: TOPIC, events: [accepted] }));
    const { rows } = await db.query<{ agent: string }>(`SELECT agent FROM agent_events WHERE id = 'unstorable'`);
    expect(rows).toEqual([{ agent: 'a\ufffdb\ufffd' }]);
  });

  it('refuses with a dead letter and a reason, never a throw', () => {
    const at = { topic: TOPIC, partition: 2, offset: '5' };
    const notJson: InboundRecord = {
      ...at,
      key: null,
      value: Buffer.from('{"specversion":'),
      headers: { 'content-type': CE_CONTENT_TYPE_STRUCTURED },
    };
    const refusedBytes = decode(notJson);
    expect(refusedBytes).toMatchObject({ ok: false, deadLetter: { code: 'not_a_cloudevent', source: notJson } });
    const refusedJson = decodeCloudEvent({ specversion: '1.0', id: 'x' }, at);
    expect(refusedJson).toMatchObject({ ok: false, deadLetter: { code: 'not_a_cloudevent' } });
    // The parked copy of a refused JSON event carries its body and position, for an operator to replay.
    if (refusedJson.ok) return;
    expect(refusedJson.deadLetter.source).toMatchObject(at);
    expect(JSON.parse(refusedJson.deadLetter.source.value!.toString())).toEqual({ specversion: '1.0', id: 'x' });
    expect(refusedJson.deadLetter.reason).toMatch(/invalid CloudEvent/);
  });
});
