import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOPICS } from '@tokencircuit/contracts';
import { DecisionLoop, DecisionMetrics, OutboxRelay } from '@tokencircuit/decision-relay';
import { createGovernance, DEFAULT_CONFIG, type OutboxEntry } from '@tokencircuit/governance';
import { InProcessBus } from '@tokencircuit/bus';
import { pgDatabase } from '@tokencircuit/storage';
import { createTestDatabase, generateTrace, waitFor, type TestDatabase } from '@tokencircuit/testing';
import { BusInterventionPublisher } from '../../apps/fleet/src/embedded/bus-adapters.js';

const governance = createGovernance(DEFAULT_CONFIG);

// The relay claims the rows a notification names by primary key and sweeps the pending index only when
// woken without ids (poll timer, start-up, a failed round): a row whose notification never arrived must
// still be published, by the sweep.
describe('decision loop claims (real Postgres)', () => {
  let db: TestDatabase;
  let entries: OutboxEntry[];
  beforeAll(async () => {
    db = await createTestDatabase('tc_outbox_claims');
    const { outbox } = governance.replay(generateTrace({ events: 400, seed: 11 }));
    entries = outbox.slice(0, 6);
    // session_replication_role=replica skips the NOTIFY trigger: as if every notification were missed.
    const client = await db.pool.connect();
    try {
      await client.query('SET session_replication_role = replica');
      for (const e of entries) {
        await client.query(
          `INSERT INTO decision_outbox (id, tenant, key_id, state_version, state_snapshot) VALUES ($1, $2, $3, $4, $5)`,
          [e.id, e.tenant, e.keyId, e.stateVersion, JSON.stringify(e.snapshot)],
        );
      }
    } finally {
      client.release();
    }
  });
  afterAll(async () => db?.drop());

  const pending = async () =>
    (
      await db.pool.query<{ id: string }>('SELECT id FROM decision_outbox WHERE published_at IS NULL ORDER BY id')
    ).rows.map((r) => r.id);

  it('publishes exactly the notified rows, then the rest on a sweep', async () => {
    const bus = new InProcessBus(TOPICS.interventions.partitions);
    const received: string[] = [];
    bus.subscribe(TOPICS.interventions.name, async (records) => {
      for (const r of records) received.push(JSON.parse(String(r.value)).id);
    });
    const relay = new OutboxRelay(pgDatabase(db.pool), new BusInterventionPublisher(bus), DEFAULT_CONFIG, 100);
    const loop = new DecisionLoop(relay, new DecisionMetrics(), 100, pino({ level: 'silent' }));
    const [first, second, ...rest] = entries.map((e) => e.id);

    // The loop starts with a sweep due (start-up); let that one pass over an empty table first.
    await db.pool.query('UPDATE decision_outbox SET published_at = now()');
    loop.wake([]);
    // Waiting on the table would pass at once (every row is marked published): wait for the round itself.
    await loop.settled();
    expect(received).toEqual([]);
    await db.pool.query('UPDATE decision_outbox SET published_at = NULL');

    loop.wake([first!, second!]);
    await waitFor(async () => ((await pending()).length === rest.length ? true : undefined), { maxWait: 5_000 });
    expect(await pending()).toEqual([...rest].sort());

    loop.wake(); // the poll timer's wake-up: no ids
    await waitFor(async () => ((await pending()).length === 0 ? true : undefined), { maxWait: 5_000 });
    await loop.stop();
    const { rows } = await db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM interventions');
    expect(rows[0]!.n).toBeGreaterThan(0);
    expect(new Set(received).size).toBe(received.length);
  });
  /** A relay publishing to a bus nobody reads: these cases look at rounds and the outbox only. */
  const unreadRelay = (batchSize: number) =>
    new OutboxRelay(pgDatabase(db.pool), new BusInterventionPublisher(new InProcessBus(1)), DEFAULT_CONFIG, batchSize);

  it("makes one round of a commit's notifications, which arrive in one tick", async () => {
    const relay = unreadRelay(100);
    const rounds: (readonly string[] | undefined)[] = [];
    const counted = Object.assign(Object.create(relay) as OutboxRelay, {
      round: (only?: readonly string[]) => {
        rounds.push(only);
        return relay.round(only);
      },
    });
    const loop = new DecisionLoop(counted, new DecisionMetrics(), 100, pino({ level: 'silent' }));
    await db.pool.query('UPDATE decision_outbox SET published_at = now()');
    loop.wake([]); // the start-up sweep, over nothing pending
    await loop.settled();
    await db.pool.query('UPDATE decision_outbox SET published_at = NULL');
    rounds.length = 0;

    // As node-postgres emits a commit's notifications: one wake-up per row, synchronously, one after another.
    const ids = entries.map((e) => e.id);
    for (const id of ids) loop.wake([id]);
    await loop.settled();
    expect(rounds).toEqual([ids]);
    expect(await pending()).toEqual([]);
    await loop.stop();
  });

  it('drains a backlog larger than one round with a single sweep, round after round', async () => {
    await db.pool.query('UPDATE decision_outbox SET published_at = NULL');
    const relay = unreadRelay(2);
    const loop = new DecisionLoop(relay, new DecisionMetrics(), 2, pino({ level: 'silent' }));
    loop.wake(); // one wake-up, no ids, rounds of 2 for 6 pending rows
    await waitFor(async () => ((await pending()).length === 0 ? true : undefined), { maxWait: 5_000 });
    await loop.stop();
  });
});
