import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentEventToCloudEvent, type AgentEvent } from '@tokencircuit/contracts';
import { consumedRecord } from '@tokencircuit/contracts/testing';
import { createGovernance, DEFAULT_CONFIG } from '@tokencircuit/governance';
import { ProjectionPipeline, type DeadLetter, type InboundRecord } from '@tokencircuit/projection';
import { pgDatabase } from '@tokencircuit/storage';
import { createTestDatabase, generateTrace, type TestDatabase } from '@tokencircuit/testing';

const governance = createGovernance(DEFAULT_CONFIG);

// agent_events was unique on the event id alone: a second tenant's event with an id the first tenant had
// used got 202 and was silently dropped as a "duplicate" (guessable ids were enough to suppress a denial).
describe('event identity is per tenant (real Postgres)', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase('tc_tenant_ids');
  });
  afterAll(async () => db?.drop());

  const asRecords = (events: readonly AgentEvent[], firstOffset: number): InboundRecord[] =>
    events.map((event, i) =>
      consumedRecord(event, { topic: 'agent-events', partition: 0, offset: String(firstOffset + i) }, 'structured'),
    );

  it('applies two tenants that use the same event ids, each once, as the reference fold does', async () => {
    const acme = generateTrace({ events: 300, seed: 11, tenants: 1 }).map((e) => ({ ...e, tenant: 'acme' }));
    // The same ids (and the same story) in another tenant: a copy an attacker could make by guessing.
    const globex = acme.map((e) => ({ ...e, tenant: 'globex' }));
    const parked: DeadLetter[] = [];
    const sink = { send: async (letters: readonly DeadLetter[]) => void parked.push(...letters) };
    const pipeline = new ProjectionPipeline(pgDatabase(db.pool), sink, DEFAULT_CONFIG, 'identity');

    const first = await pipeline.process(asRecords(acme, 0));
    const second = await pipeline.process(asRecords(globex, acme.length));

    expect(parked).toEqual([]);
    expect([first.projected, second.projected]).toEqual([acme.length, globex.length]);
    const { rows: stored } = await db.pool.query<{ tenant: string; n: number }>(
      'SELECT tenant, count(*)::int AS n FROM agent_events GROUP BY tenant ORDER BY tenant',
    );
    expect(stored).toEqual([
      { tenant: 'acme', n: acme.length },
      { tenant: 'globex', n: globex.length },
    ]);

    const reference = governance.replay([...acme, ...globex]);
    const { rows: states } = await db.pool.query<{ key_id: string; tenant: string; version: number }>(
      'SELECT key_id, tenant, version FROM failure_state ORDER BY key_id',
    );
    expect(states.filter((s) => s.tenant === 'globex').length).toBeGreaterThan(0);
    const byKey = (a: readonly [string, number], b: readonly [string, number]) =>
      a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0;
    expect(states.map((s) => [s.key_id, s.version] as const).sort(byKey)).toEqual(
      [...reference.states.values()].map((s) => [s.keyId, s.version] as const).sort(byKey),
    );
    const { rows: outbox } = await db.pool.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM decision_outbox_transitions',
    );
    expect(outbox[0]!.n).toBe(reference.outbox.length);
  });

  it('still skips a redelivered event of the same tenant', async () => {
    const acme = generateTrace({ events: 300, seed: 11, tenants: 1 }).map((e) => ({ ...e, tenant: 'acme' }));
    // Another group reads the same records from the start: nothing below its checkpoint, every id known.
    const replica = new ProjectionPipeline(pgDatabase(db.pool), { send: async () => {} }, DEFAULT_CONFIG, 'identity-2');
    const again = await replica.process(asRecords(acme, 0));
    expect({ projected: again.projected, duplicates: again.duplicates }).toEqual({
      projected: 0,
      duplicates: acme.length,
    });
  });

  // CloudEvents makes an id unique within its source: two agents of one tenant may use the same id, and a
  // second body under a known (tenant, id, source) was dropped as a duplicate without a word (issue 28).
  describe('per source, with conflicts parked (migration 0035)', () => {
    const outcomes = () =>
      generateTrace({ events: 200, seed: 5, tenants: 1 })
        .map((e) => ({ ...e, tenant: 'initech' }) as AgentEvent)
        .filter((e): e is Extract<AgentEvent, { type: 'tool_call.outcome' }> => e.type === 'tool_call.outcome');

    it('applies the same id from two agents of one tenant as two events, as the reference fold does', async () => {
      const [first] = outcomes();
      const twin = { ...first!, data: { ...first!.data, call: { ...first!.data.call, agent: 'twin-agent' } } };
      const parked: DeadLetter[] = [];
      const pipeline = new ProjectionPipeline(
        pgDatabase(db.pool),
        { send: async (letters) => void parked.push(...letters) },
        DEFAULT_CONFIG,
        'identity-sources',
      );
      const result = await pipeline.process(asRecords([first!, twin], 10_000));
      expect(parked).toEqual([]);
      expect(result.projected).toBe(2);
      const { rows } = await db.pool.query<{ source: string }>(
        'SELECT source FROM agent_events WHERE tenant = $1 AND id = $2 ORDER BY seq',
        ['initech', first!.id],
      );
      expect(rows.map((r) => r.source)).toEqual([
        agentEventToCloudEvent(first!).source,
        agentEventToCloudEvent(twin).source,
      ]);
      expect(governance.replay([first!, twin]).outbox.length).toBe(result.outbox);
    });

    it('parks another body under a known id with the stored digest, in a later chunk and in the same one; the stored event stands', async () => {
      const [, known, fresh] = outcomes();
      const changed = {
        ...known!,
        data: { ...known!.data, error: { ...known!.data.error!, message: 'another body' } },
      };
      const alsoChanged = { ...fresh!, time: '2026-03-01T00:00:00.000Z' };
      const parked: DeadLetter[] = [];
      const pipeline = new ProjectionPipeline(
        pgDatabase(db.pool),
        { send: async (letters) => void parked.push(...letters) },
        DEFAULT_CONFIG,
        'identity-conflicts',
      );
      expect((await pipeline.process(asRecords([known!], 20_000))).projected).toBe(1);

      // Later: the same body again (a producer's retry, at a new offset) is a duplicate; another body is parked,
      // whether the other is stored or came earlier in the same chunk.
      const retry = await pipeline.process(asRecords([known!], 20_001));
      expect({ projected: retry.projected, duplicates: retry.duplicates, parked: parked.length }).toEqual({
        projected: 0,
        duplicates: 1,
        parked: 0,
      });
      const later = await pipeline.process(asRecords([changed, fresh!, alsoChanged], 20_002));
      expect({ projected: later.projected, duplicates: later.duplicates }).toEqual({ projected: 1, duplicates: 0 });
      const { rows } = await db.pool.query<{ digest: string; message: string }>(
        `SELECT tokencircuit_event_digest(tokencircuit_cloud_event(agent_events)) AS digest, tokencircuit_cloud_event(agent_events) -> 'data' -> 'error' ->> 'message' AS message
           FROM agent_events WHERE tenant = 'initech' AND id = $1`,
        [known!.id],
      );
      expect(rows).toHaveLength(1);
      expect(rows[0]!.message).toBe(known!.data.error!.message);
      expect(parked.map((p) => [p.code, p.source.offset])).toEqual([
        ['conflicting_duplicate', '20002'],
        ['conflicting_duplicate', '20004'],
      ]);
      expect(parked[0]!.reason).toContain(`event id "${known!.id}"`);
      expect(parked[0]!.reason).toContain(rows[0]!.digest);
      expect(parked[1]!.reason).toContain('an earlier record of the same batch');
      expect(later.deadLettered).toHaveLength(2);

      // Redelivered from the start: nothing is parked twice, nothing applied twice.
      const again = await pipeline.process(asRecords([known!, changed, fresh!, alsoChanged], 20_001));
      expect(again.alreadyApplied).toBe(4);
      expect(parked).toHaveLength(2);
    });
  });
});
