import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  agentEventToCloudEvent,
  LIMITS,
  parseAgentEvent,
  stateKeyBytes,
  StorableTimestamp,
  type AgentEvent,
} from '@tokencircuit/contracts';
import { consumedRecord } from '@tokencircuit/contracts/testing';
import { DEFAULT_CONFIG } from '@tokencircuit/governance';
import { ProjectionPipeline, type DeadLetter, type InboundRecord } from '@tokencircuit/projection';
import { pgDatabase } from '@tokencircuit/storage';
import { createTestDatabase, generateTrace, type TestDatabase } from '@tokencircuit/testing';

const record = (value: string, offset: number, headers: InboundRecord['headers']): InboundRecord => ({
  topic: 'agent-events',
  partition: 0,
  offset: String(offset),
  key: null,
  value: Buffer.from(value, 'utf8'),
  headers,
});
const structured = { 'content-type': 'application/cloudevents+json; charset=UTF-8' };
const asRecord = (event: AgentEvent, offset: number): InboundRecord =>
  consumedRecord(event, { topic: 'agent-events', partition: 0, offset: String(offset) }, 'structured');

/** A fleet-scoped permission denial whose key fields take `bytes` bytes of incompressible 3-byte characters. */
function deniedWithKeyBytes(base: AgentEvent & { type: 'tool_call.outcome' }, bytes: number, seed: number): unknown {
  let state = seed;
  const random3 = () => String.fromCharCode(0x4e00 + ((state = (state * 1103515245 + 12345) % 2 ** 31) % 20000));
  const event = { ...(structuredClone(base) as any), id: `${base.id}-key-${bytes}` };
  Object.assign(event.data.call, { resourceId: '', principal: 'p', authScope: 'a', resourceClass: 'c' });
  event.data.status = 'failed';
  event.data.error = { sqlState: '42501', name: 'insufficient_privilege', message: 'permission denied' };
  let missing = bytes - stateKeyBytes(parseAgentEvent(event));
  for (const [field, chars] of [
    ['resourceId', 1024],
    ['principal', 255],
    ['authScope', 255],
    ['resourceClass', 255],
  ] as const) {
    const count = Math.min(chars, Math.floor(missing / 3));
    event.data.call[field] += Array.from({ length: count }, random3).join('');
    missing -= count * 3;
  }
  event.data.call.tool += 'x'.repeat(missing);
  return event;
}

describe('what the contract accepts, Postgres stores (real Postgres)', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase('tc_storage_limits');
  });
  afterAll(async () => db?.drop());

  it('every timestamp the contract accepts is a timestamptz, whatever year, offset and fraction', async () => {
    const candidate = fc
      .record({
        year: fc.integer({ min: 0, max: 9999 }),
        day: fc.integer({ min: 1, max: 28 }),
        month: fc.integer({ min: 1, max: 12 }),
        fraction: fc.option(fc.stringMatching(/^[0-9]{1,12}$/), { nil: undefined }),
        offset: fc.option(fc.integer({ min: -(23 * 60 + 59), max: 23 * 60 + 59 }), { nil: undefined }),
      })
      .map(({ year, month, day, fraction, offset }) => {
        const two = (n: number) => String(n).padStart(2, '0');
        const zone =
          offset === undefined
            ? 'Z'
            : `${offset < 0 ? '-' : '+'}${two(Math.floor(Math.abs(offset) / 60))}:${two(Math.abs(offset) % 60)}`;
        return `${String(year).padStart(4, '0')}-${two(month)}-${two(day)}T23:59:59${fraction ? `.${fraction}` : ''}${zone}`;
      });
    const samples = fc.sample(candidate, { numRuns: 3000, seed: 42 });
    const edges = [
      '0001-01-01T00:00:00Z',
      '0001-01-01T00:00:00-15:59',
      '9999-12-31T23:59:59.999+15:59',
      '9999-12-31T23:59:59.999999999Z',
    ];
    const accepted = [...edges, ...samples].filter((t) => StorableTimestamp.safeParse(t).success);
    expect(accepted.length).toBeGreaterThan(1000);
    // One statement: a single value Postgres refused would fail it.
    const { rows } = await db.pool.query<{ n: number }>(
      `SELECT count(t::timestamptz)::int AS n FROM unnest($1::text[]) AS t`,
      [accepted],
    );
    expect(rows[0]!.n).toBe(accepted.length);
    // And what Postgres refuses, the contract refuses too.
    for (const refused of ['0000-06-01T00:00:00Z', '2025-06-01T00:00:00+16:00']) {
      await expect(db.pool.query('SELECT $1::timestamptz', [refused])).rejects.toThrow();
      expect(StorableTimestamp.safeParse(refused).success).toBe(false);
    }
  });

  it('parks what storage cannot hold with a reason, and commits the rest of the chunk', async () => {
    const trace = generateTrace({ events: 60, seed: 5, tenants: 1 });
    const failed = trace.find((e) => e.type === 'tool_call.outcome' && e.data.status === 'failed') as AgentEvent & {
      type: 'tool_call.outcome';
    };
    const ce = (patch: (e: any) => void) => {
      const copy = structuredClone(agentEventToCloudEvent({ ...failed, id: `hostile-${Math.random()}` })) as any;
      patch(copy);
      return JSON.stringify(copy);
    };
    const deep = (levels: number) => '{"a":'.repeat(levels) + '1' + '}'.repeat(levels);
    const hostile = [
      ce((e) => (e.time = '0000-01-01T00:00:00Z')),
      ce((e) => (e.time = '2026-01-01T00:00:00+16:00')),
      ce((e) => (e.time = '0001-01-01T00:00:00+01:00')),
      ce((e) => (e.data.call.arguments = { q: '@DEEP@' })).replace('"@DEEP@"', deep(10_000)),
      // envelope, data, call, arguments: four levels above q's value, one too many in all.
      ce((e) => (e.data.call.arguments = { q: '@DEEP@' })).replace('"@DEEP@"', deep(LIMITS.jsonDepth - 3)),
      ce((e) => (e.data.call.arguments = { n: '@BIG@' })).replace('"@BIG@"', '1e400'),
      ce((e) => (e.data.call.arguments = JSON.parse('{"__proto__":{"polluted":true}}'))),
      JSON.stringify(agentEventToCloudEvent(deniedWithKeyBytes(failed, LIMITS.stateKeyBytes + 1, 1) as AgentEvent)),
    ];
    const atLimit = parseAgentEvent(deniedWithKeyBytes(failed, LIMITS.stateKeyBytes, 2));
    const deepest = ce((e) => (e.data.call.arguments = { q: '@DEEP@' })).replace(
      '"@DEEP@"',
      deep(LIMITS.jsonDepth - 4),
    );
    const records = [
      ...trace.map((e, i) => asRecord(e, i)),
      ...hostile.map((value, i) => record(value, trace.length + i, structured)),
      asRecord(atLimit, trace.length + hostile.length),
      record(deepest, trace.length + hostile.length + 1, structured),
    ];
    const parked: DeadLetter[] = [];
    const pipeline = new ProjectionPipeline(
      pgDatabase(db.pool),
      { send: async (letters) => void parked.push(...letters) },
      DEFAULT_CONFIG,
      'limits',
    );

    const result = await pipeline.process(records);

    expect(parked.map((p) => p.reason)).toEqual([
      expect.stringMatching(/time: outside 0001-01-01T00:00:00.000Z … 9999-12-31T23:59:59.999Z/),
      expect.stringMatching(/time: UTC offset beyond ±15:59/),
      expect.stringMatching(/time: outside 0001/),
      'value nests JSON deeper than 64 levels',
      'value nests JSON deeper than 64 levels',
      expect.stringMatching(/data\.call\.arguments\.n: Infinity is not a JSON number/),
      expect.stringMatching(/__proto__/),
      expect.stringMatching(
        new RegExp(`data\\.call: .* ${LIMITS.stateKeyBytes + 1} bytes .* limit is ${LIMITS.stateKeyBytes}`),
      ),
    ]);
    expect(result.projected).toBe(trace.length + 2);
    // The key at the limit is a primary key of failure_state and (with its version) of decision_outbox.
    const { rows } = await db.pool.query<{ bytes: number }>(
      `SELECT max(octet_length(key_id)) AS bytes FROM failure_state WHERE scope = 'fleet' AND state::jsonb -> 'causingEventIds' ? $1`,
      [atLimit.id],
    );
    expect(rows[0]!.bytes).toBeGreaterThan(LIMITS.stateKeyBytes);
  });

  it('a key id at the limit fits beside the longest tenant in an index entry (episode_events)', async () => {
    let state = 7;
    const random3 = (n: number) =>
      Array.from({ length: n }, () =>
        String.fromCharCode(0x4e00 + ((state = (state * 1103515245 + 12345) % 2 ** 31) % 20000)),
      ).join('');
    const tenant = random3(LIMITS.idChars);
    // The key fields at the limit, plus keyIdOf's separators and markers (under 110 bytes).
    const keyId = `fleet|${random3(Math.floor(LIMITS.stateKeyBytes / 3))}|p=|r=|seb=0|invariant_violation|${'x'.repeat(40)}`;
    await db.pool.query(
      `INSERT INTO episode_events (event_id, tenant, key_id, episode, episode_id, transition, level, state_version, data, occurred_at)
       VALUES ('e-limit', $1, $2, 1, 'ep', 'triggered', 'block', 1, '{}', now())`,
      [tenant, keyId],
    );
    const { rows } = await db.pool.query<{ bytes: number }>(
      `SELECT octet_length(tenant) + octet_length(key_id) AS bytes FROM episode_events WHERE event_id = 'e-limit'`,
    );
    expect(rows[0]!.bytes).toBeGreaterThan(2300);
  });
});
