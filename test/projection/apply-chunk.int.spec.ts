import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGENT_EVENT_TYPES, parseAgentEvent, type AgentEvent, type AgentEventType } from '@tokencircuit/contracts';
import { permissionDenied, resolution, SpecAgent, Timeline, toolCall } from '@tokencircuit/contracts/testing';
import { createGovernance, DEFAULT_CONFIG } from '@tokencircuit/governance';
import {
  pgDatabase,
  pgSession,
  readFailureState,
  type SqlDatabase,
  stateKeyColumns,
  stateOfRow,
  type StateKeyColumns,
} from '@tokencircuit/storage';
import { createTestDatabase, generateTrace, type TestDatabase } from '@tokencircuit/testing';
import { acceptedEvent } from '../../libs/projection/src/decode.js';
import type { PositionedEvent } from '../../libs/projection/src/positioned-event.js';
import { applyChunk, type ChunkInput } from '../../libs/projection/src/apply-chunk.js';

const governance = createGovernance(DEFAULT_CONFIG);

const TOPIC = 'tokencircuit.agent-events.v1';

/** Everything a delivery could change: stored events, folded state, outbox rows and checkpoints. */
async function snapshot(db: SqlDatabase) {
  const [events, states, outbox, checkpoints] = await Promise.all([
    db.query(
      'SELECT tenant, id, seq::text, kafka_topic, kafka_partition, kafka_offset::text FROM agent_events ORDER BY seq',
    ),
    db.query('SELECT key_id, version, status, state::text FROM failure_state ORDER BY key_id'),
    db.query('SELECT id, key_id, state_version FROM decision_outbox_transitions ORDER BY id'),
    db.query('SELECT consumer_group, topic, partition, next_offset::text FROM projector_checkpoints ORDER BY 1, 2, 3'),
  ]);
  return { events: events.rows, states: states.rows, outbox: outbox.rows, checkpoints: checkpoints.rows };
}

/** A trace of its own per case (tenants renamed), so no case depends on what another projected. */
function traceFor(name: string): AgentEvent[] {
  return generateTrace({ events: 400, seed: 13 }).map((event) => ({ ...event, tenant: `${name}-${event.tenant}` }));
}

function positioned(events: readonly AgentEvent[], firstOffset: number, partition = 0): PositionedEvent[] {
  return events.map((event, i) => acceptedEvent(event, { topic: TOPIC, partition, offset: String(firstOffset + i) }));
}

/** Whether `work` settles (either way) within `ms`: a lock wait shows as not settling. */
const settlesWithin = (work: Promise<unknown>, ms: number): Promise<boolean> =>
  Promise.race([
    work.then(
      () => true,
      () => true,
    ),
    new Promise<boolean>((resolve) => setTimeout(() => resolve(false), ms)),
  ]);

describe('applyChunk: a transaction + positioned events → state, outbox, checkpoint (real Postgres)', () => {
  let test: TestDatabase;
  let db: SqlDatabase;
  const run = (input: ChunkInput) => db.transaction((tx) => applyChunk(tx, DEFAULT_CONFIG, input));

  beforeAll(async () => {
    test = await createTestDatabase('projection_project');
    db = pgDatabase(test.pool);
  });
  afterAll(async () => {
    await test?.drop();
  });

  /**
   * The case's trace up to (not including) its first event of `type` after the first 100 events is
   * projected; then that event; the case's group and topic are its own.
   */
  async function primed(type: AgentEventType, group: string) {
    const trace = traceFor(group);
    let at = trace.findIndex(
      (e, i) => i >= 100 && e.type === type && (e.type !== 'tool_call.outcome' || e.data.status === 'failed'),
    );
    let event = trace[at]!;
    if (type === 'operator.resolution') {
      // Traces carry no operator: resolve a key the trace opened, as the API would publish it.
      at = 300;
      await run({ group, topic: TOPIC, events: positioned(trace.slice(0, at), 0) });
      const { rows } = await db.query<{ key_id: string; tenant: string }>(
        `SELECT key_id, tenant FROM failure_state WHERE tenant LIKE $1 || '-%' AND status <> 'resolved' ORDER BY key_id LIMIT 1`,
        [group],
      );
      event = parseAgentEvent(
        resolution(
          rows[0]!.tenant,
          { keyId: rows[0]!.key_id, resolution: 'reset', by: 'operator-1', reason: 'fixed upstream' },
          { id: `${group}-resolution-1`, time: '2026-11-02T00:00:00.000Z' },
        ),
      );
    } else {
      await run({ group, topic: TOPIC, events: positioned(trace.slice(0, at), 0) });
    }
    expect(event, `the trace has a ${type} to deliver`).toBeDefined();
    return { event, offset: at };
  }

  for (const type of AGENT_EVENT_TYPES) {
    it(`${type} delivered twice at the same position: the second delivery changes nothing`, async () => {
      const group = `twice-${type.replace(/[._]/g, '-')}`;
      const { event, offset } = await primed(type, group);
      const delivery = { group, topic: TOPIC, events: positioned([event], offset) };

      const before = await snapshot(db);
      const first = await run(delivery);
      const after = await snapshot(db);
      expect(first.folded.map((p) => p.event.id)).toEqual([event.id]);
      expect(after.events).toHaveLength(before.events.length + 1);
      expect(after.checkpoints).not.toEqual(before.checkpoints);
      if (type === 'tool_call.outcome' || type === 'operator.resolution') {
        // The deliveries that open or move a key: the proof below must cover state and outbox writes.
        expect(first.states.length).toBeGreaterThan(0);
        expect(after.states).not.toEqual(before.states);
        expect(first.outbox.length).toBeGreaterThan(0);
      }

      const second = await run(delivery);
      expect(second).toMatchObject({ folded: [], alreadyApplied: 1, duplicates: 0, states: [], outbox: [] });
      expect(await snapshot(db)).toEqual(after);
    });

    it(`${type} delivered twice at two positions (a producer retry): only the checkpoint moves`, async () => {
      const group = `retry-${type.replace(/[._]/g, '-')}`;
      const { event, offset } = await primed(type, group);
      await run({ group, topic: TOPIC, events: positioned([event], offset) });
      const after = await snapshot(db);

      const second = await run({ group, topic: TOPIC, events: positioned([event], offset + 1) });
      expect(second).toMatchObject({ folded: [], alreadyApplied: 0, duplicates: 1, states: [], outbox: [] });
      const again = await snapshot(db);
      expect({ ...again, checkpoints: [] }).toEqual({ ...after, checkpoints: [] });
      expect(again.checkpoints).toContainEqual({
        consumer_group: group,
        topic: TOPIC,
        partition: 0,
        next_offset: String(offset + 2),
      });
    });

    it(`${type} delivered twice in one chunk: folded once`, async () => {
      const group = `chunk-${type.replace(/[._]/g, '-')}`;
      const { event, offset } = await primed(type, group);
      const before = await snapshot(db);
      const result = await run({ group, topic: TOPIC, events: positioned([event, event], offset) });
      expect(result.folded).toHaveLength(1);
      expect(result.duplicates).toBe(1);
      expect((await snapshot(db)).events).toHaveLength(before.events.length + 1);
    });
  }

  it('moves the checkpoint past refused positions, and never backwards', async () => {
    const group = 'refused';
    const result = await run({
      group,
      topic: TOPIC,
      events: [],
      refused: [
        { topic: TOPIC, partition: 3, offset: '41' },
        { topic: TOPIC, partition: 3, offset: '40' },
      ],
    });
    expect(result.folded).toEqual([]);
    await run({ group, topic: TOPIC, events: [], refused: [{ topic: TOPIC, partition: 3, offset: '7' }] });
    const { checkpoints } = await snapshot(db);
    expect(checkpoints.filter((c) => c['consumer_group'] === group)).toEqual([
      { consumer_group: group, topic: TOPIC, partition: 3, next_offset: '42' },
    ]);
  });

  it('folds as the reference fold does, in chunks, with every chunk redelivered', async () => {
    const trace = traceFor('chunking');
    const events = positioned(trace, 0);
    for (let i = 0; i < events.length; i += 7) {
      const chunk = { group: 'chunking', topic: TOPIC, events: events.slice(i, i + 7) };
      await run(chunk);
      expect((await run(chunk)).folded).toEqual([]);
    }
    const { rows } = await db.query<{ state: unknown } & StateKeyColumns>(
      `SELECT state, ${stateKeyColumns()} FROM failure_state WHERE tenant LIKE 'chunking-%'`,
    );
    const reference = governance.replay(trace);
    expect(reference.states.size).toBeGreaterThan(0);
    expect(new Map(rows.map((r) => [r.key_id, stateOfRow(r.state, r)]))).toEqual(new Map(reference.states));
    const outbox = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM decision_outbox_transitions WHERE tenant LIKE 'chunking-%'`,
    );
    expect(outbox.rows[0]!.n).toBe(reference.outbox.length);
  });

  it('carries no_progress run memories across chunks (migration 0044): the keys opened at a finding and the memories left are those of the reference fold', async () => {
    const timeline = new Timeline();
    const digested = (agent: SpecAgent, tool: string, q: string, result: string): AgentEvent => {
      const event = agent.succeeded(agent.call(tool, { arguments: { q } }), { empty: false });
      return { ...event, data: { ...event.data, resultDigest: `sha256:${result}` } } as AgentEvent;
    };
    const looping = new SpecAgent(timeline, 'memories-acme', 'bot', 'run-loop', { effect: 'read' });
    const moving = new SpecAgent(timeline, 'memories-acme', 'bot', 'run-moving', { effect: 'read' });
    const trace: AgentEvent[] = [];
    for (let i = 0; i < 6; i += 1) {
      trace.push(digested(looping, 'search', 'q3', 'same'));
      trace.push(digested(moving, 'search', 'q3', `r${i}`));
      trace.push(digested(looping, 'fetch', `u${i}`, 'page'));
    }
    const events = positioned(trace, 0, 1);
    // Chunks of two: every memory is written by one transaction and read back by the next.
    for (let i = 0; i < events.length; i += 2) {
      const chunk = { group: 'memories', topic: TOPIC, events: events.slice(i, i + 2) };
      await run(chunk);
      expect((await run(chunk)).folded).toEqual([]);
    }
    const reference = governance.replay(trace);
    const states = await db.query<{ state: unknown } & StateKeyColumns>(
      `SELECT state, ${stateKeyColumns()} FROM failure_state WHERE tenant = 'memories-acme'`,
    );
    expect(reference.states.size).toBe(1);
    expect(new Map(states.rows.map((r) => [r.key_id, stateOfRow(r.state, r)]))).toEqual(new Map(reference.states));
    const memories = await db.query<{ id: string; memory: unknown }>(
      `SELECT id, memory FROM progress_memories WHERE tenant = 'memories-acme'`,
    );
    expect(reference.memories.size).toBe(2);
    expect(new Map(memories.rows.map((r) => [r.id, r.memory]))).toEqual(new Map(reference.memories));
  });

  it('folds only the new events of a chunk that repeats stored ones at new positions (a producer retry mid-stream)', async () => {
    // The fold runs while Postgres inserts, taking every event as new; the stored ones must be taken out again.
    const trace = traceFor('retried-run');
    const half = Math.floor(trace.length / 2);
    await run({ group: 'retried-run', topic: TOPIC, events: positioned(trace.slice(0, half), 0) });
    const retried = await run({ group: 'retried-run', topic: TOPIC, events: positioned(trace, half) });
    expect(retried.duplicates).toBe(half);
    expect(retried.folded.map((p) => p.event.id)).toEqual(trace.slice(half).map((e) => e.id));

    const reference = governance.replay(trace);
    const { rows } = await db.query<{ state: unknown } & StateKeyColumns>(
      `SELECT state, ${stateKeyColumns()} FROM failure_state WHERE tenant LIKE 'retried-run-%'`,
    );
    expect(new Map(rows.map((r) => [r.key_id, stateOfRow(r.state, r)]))).toEqual(new Map(reference.states));
    const outbox = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM decision_outbox_transitions WHERE tenant LIKE 'retried-run-%'`,
    );
    expect(outbox.rows[0]!.n).toBe(reference.outbox.length);
  });

  it('serialises chunks that name the same fleet coordinates, and only those (a principal on another resource goes on)', async () => {
    // One partition per writer, each the first failure of principal svc-lock on a resource: a fleet key to open.
    const denied = (partition: number, resourceId: string) =>
      acceptedEvent(
        parseAgentEvent(
          permissionDenied('locks', toolCall({ run: `run-${partition}`, principal: 'svc-lock', resourceId })),
        ),
        { topic: TOPIC, partition, offset: '0' },
      );
    const open = await test.pool.connect();
    const holding = pgSession(open);
    const pending: Promise<unknown>[] = [];
    try {
      await open.query('BEGIN');
      await applyChunk(holding, DEFAULT_CONFIG, {
        group: 'locks',
        topic: TOPIC,
        events: [denied(0, 'finance.salaries')],
      });
      // Same principal, another resource: its own coordinates, so it commits while the first is still open.
      const other = run({ group: 'locks', topic: TOPIC, events: [denied(1, 'finance.bonuses')] });
      pending.push(other);
      expect(await settlesWithin(other, 5_000)).toBe(true);
      // Same principal and resource: it must wait for the first, or both would open the same key.
      const same = run({ group: 'locks', topic: TOPIC, events: [denied(2, 'finance.salaries')] });
      pending.push(same);
      expect(await settlesWithin(same, 300)).toBe(false);
      await open.query('COMMIT');
      expect(await settlesWithin(same, 5_000)).toBe(true);
    } finally {
      await open.query('COMMIT').catch(() => undefined); // a failed expectation must not leave the others waiting
      await Promise.allSettled(pending);
      open.release();
    }
    const { rows } = await db.query<{ resource_id: string; failures: number }>(
      `SELECT resource_id, (state->>'failures')::int AS failures FROM failure_state
        WHERE tenant = 'locks' AND scope = 'fleet' ORDER BY resource_id`,
    );
    expect(rows).toEqual([
      { resource_id: 'finance.bonuses', failures: 1 },
      { resource_id: 'finance.salaries', failures: 2 },
    ]);
  });

  it("an operator's resolution naming a key waits for a chunk that moves it through its coordinates, and folds on what that chunk committed", async () => {
    // The load takes no row locks: a chunk that names a key by id must take the same lock as one that reaches it
    // through its principal's resource, or it would fold the version before the other's and overwrite it.
    const tenant = 'named-lock';
    const call = (run: string) => toolCall({ run, principal: 'svc-named', resourceId: 'finance.salaries' });
    const first = parseAgentEvent(permissionDenied(tenant, call('run-a'), '2026-01-05T10:00:01.000Z'));
    const second = parseAgentEvent(permissionDenied(tenant, call('run-b'), '2026-01-05T10:00:02.000Z'));
    await run({ group: 'named-lock', topic: TOPIC, events: positioned([first], 0, 0) });
    const { rows: opened } = await db.query<{ key_id: string }>(
      `SELECT key_id FROM failure_state WHERE tenant = $1 AND scope = 'fleet'`,
      [tenant],
    );
    expect(opened).toHaveLength(1);
    const keyId = opened[0]!.key_id;
    const reset = parseAgentEvent(
      resolution(
        tenant,
        { keyId, resolution: 'reset', by: 'operator-1', reason: 'granted' },
        { id: 'named-lock-reset' },
      ),
    );

    const open = await test.pool.connect();
    const pending: Promise<unknown>[] = [];
    try {
      await open.query('BEGIN');
      await applyChunk(pgSession(open), DEFAULT_CONFIG, {
        group: 'named-lock',
        topic: TOPIC,
        events: positioned([second], 0, 1),
      });
      const resolving = run({ group: 'named-lock', topic: TOPIC, events: positioned([reset], 0, 2) });
      pending.push(resolving);
      expect(await settlesWithin(resolving, 300)).toBe(false);
      await open.query('COMMIT');
      expect(await settlesWithin(resolving, 5_000)).toBe(true);
      await resolving;
    } finally {
      await open.query('COMMIT').catch(() => undefined);
      await Promise.allSettled(pending);
      open.release();
    }

    const reference = governance.replay([first, second, reset]);
    const expected = reference.states.get(keyId)!;
    const stored = await readFailureState(db, keyId);
    expect(stored).toMatchObject({ version: expected.version, status: expected.status });
    expect(JSON.stringify(stored!.state)).toBe(JSON.stringify(expected));
    expect(expected.version).toBe(3);
    const { rows: outbox } = await db.query<{ id: string }>(
      'SELECT id FROM decision_outbox_transitions WHERE key_id = $1 ORDER BY state_version',
      [keyId],
    );
    expect(outbox.map((r) => r.id)).toEqual(reference.outbox.filter((e) => e.keyId === keyId).map((e) => e.id));
  });

  it('folds a wide fleet (many principals and resources, so each chunk loads a small part of the keys) as the reference fold does', async () => {
    const trace = generateTrace({ events: 3_000, seed: 21, principals: 60, resources: 25 }).map((event) => ({
      ...event,
      tenant: `wide-${event.tenant}`,
    }));
    const events = positioned(trace, 0);
    for (let i = 0; i < events.length; i += 250) {
      await run({ group: 'wide', topic: TOPIC, events: events.slice(i, i + 250) });
    }
    const { rows } = await db.query<{ state: unknown } & StateKeyColumns>(
      `SELECT state, ${stateKeyColumns()} FROM failure_state WHERE tenant LIKE 'wide-%'`,
    );
    const reference = governance.replay(trace);
    expect([...reference.states.values()].filter((s) => s.key.scope === 'fleet').length).toBeGreaterThan(50);
    expect(new Map(rows.map((r) => [r.key_id, stateOfRow(r.state, r)]))).toEqual(new Map(reference.states));
    const outbox = await db.query<{ id: string }>(
      `SELECT id FROM decision_outbox_transitions WHERE tenant LIKE 'wide-%' ORDER BY id`,
    );
    expect(outbox.rows.map((r) => r.id).sort()).toEqual(reference.outbox.map((e) => e.id).sort());
  });
});
