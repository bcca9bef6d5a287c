import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentEvent } from '@tokencircuit/contracts';
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
    const { rows: outbox } = await db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM decision_outbox');
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
});
