import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOPICS } from '@tokencircuit/contracts';
import { DecisionMetrics, OutboxRelay } from '@tokencircuit/decision-relay';
import { createGovernance, DEFAULT_CONFIG, type OutboxEntry } from '@tokencircuit/governance';
import { InProcessBus } from '@tokencircuit/bus';
import {
  appendInterventions,
  pgDatabase,
  prepareFold,
  savePreparedFold,
  type SqlDatabase,
  type SqlSession,
} from '@tokencircuit/storage';
import { createTestDatabase, generateTrace, type TestDatabase } from '@tokencircuit/testing';
import { BusInterventionPublisher } from '../../apps/fleet/src/embedded/bus-adapters.js';
import { interventionFixture } from '../support/postgres-fixtures.js';

const governance = createGovernance(DEFAULT_CONFIG);

// A row whose decision throws used to fail every round it was claimed in, so the rows behind it never
// got a decision; and a failed round marked the first N pending rows, not the rows it had claimed.
describe('decision outbox poison (real Postgres)', () => {
  let db: TestDatabase;
  let entries: OutboxEntry[];
  let unrecorded: OutboxEntry[];
  let spare: OutboxEntry[];
  beforeAll(async () => {
    db = await createTestDatabase('tc_outbox_poison');
    const { outbox } = governance.replay(generateTrace({ events: 400, seed: 11 }));
    const intervening = outbox.filter((e) => governance.intervention(e, e.snapshot.updatedAt) !== null);
    entries = intervening.slice(0, 8);
    // Rows no earlier case has recorded an intervention for (the trail is append-only).
    unrecorded = intervening.slice(8, 12);
    spare = intervening.slice(12, 16);
  });
  afterAll(async () => db?.drop());

  const insert = (id: string, e: OutboxEntry, snapshot: unknown, createdAt: string) =>
    db.pool.query(
      `INSERT INTO decision_outbox (id, tenant, key_id, state_version, state_snapshot, created_at) VALUES ($1, $2, $3, $4, $5, $6)`,
      [id, e.tenant, e.keyId, e.stateVersion, JSON.stringify(snapshot), createdAt],
    );
  /** A relay over the test database that publishes to an in-process bus nobody reads. */
  const busRelay = () =>
    new OutboxRelay(pgDatabase(db.pool), new BusInterventionPublisher(new InProcessBus(1)), DEFAULT_CONFIG, 100);
  const row = async (id: string) =>
    (
      await db.pool.query<{ published: boolean; parked: boolean; attempts: number; last_error: string | null }>(
        `SELECT published_at IS NOT NULL AS published, parked_at IS NOT NULL AS parked, attempts, last_error
           FROM decision_outbox WHERE id = $1`,
        [id],
      )
    ).rows[0]!;

  it('parks a row whose decision throws and one whose records the database refuses; the others are published', async () => {
    const [a, b, ...good] = entries;
    // Oldest first, so they head every claim.
    await insert('poison-throws', a!, { keyId: a!.keyId, nonsense: true }, '2000-01-01T00:00:00Z');
    // Decides fine, but its issued_at (the state's updatedAt) is a year Postgres has no timestamptz for.
    await insert(
      'poison-refused',
      b!,
      { ...b!.snapshot, updatedAt: '0000-06-01T00:00:00.000Z' },
      '2000-01-01T00:00:01Z',
    );
    for (const [i, e] of good.entries()) await insert(e.id, e, e.snapshot, `2000-01-01T00:01:0${i}Z`);
    const bus = new InProcessBus(TOPICS.interventions.partitions);
    const received: string[] = [];
    bus.subscribe(TOPICS.interventions.name, async (records) => {
      for (const r of records) received.push(JSON.parse(String(r.value)).id);
    });
    const relay = new OutboxRelay(pgDatabase(db.pool), new BusInterventionPublisher(bus), DEFAULT_CONFIG, 100);
    const metrics = new DecisionMetrics();

    const round = await relay.round();
    metrics.recordRound(round);

    expect(round.parked.map((p) => p.id).sort()).toEqual(['poison-refused', 'poison-throws']);
    expect(round.published.length).toBe(good.length);
    expect(await row('poison-throws')).toMatchObject({ parked: true, published: false, attempts: 1 });
    expect((await row('poison-throws')).last_error).toMatch(/^decision failed: /);
    expect((await row('poison-refused')).last_error).toMatch(/database refused .*out of range/);
    for (const e of good) expect(await row(e.id)).toMatchObject({ published: true, parked: false });
    const { rows } = await db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM interventions');
    expect(rows[0]!.n).toBe(good.length);
    expect((await metrics.parked.get()).values[0]!.value).toBe(2);

    // Parked rows are never claimed again, by a sweep or by a notification naming them.
    expect((await relay.round()).claimed).toBe(0);
    expect((await relay.round(['poison-throws', 'poison-refused'])).claimed).toBe(0);
    await db.pool.query('DELETE FROM decision_outbox');
  });

  // The relay marks its rows published while the broker takes the publish: a publish that fails after the
  // mark is written must leave the rows pending just as one that fails at once.
  it.each([
    ['at once', 0],
    ['after the rows were marked', 300],
  ])(
    'a failed round (the publish failing %s) records its error on the rows it claimed, and on no other',
    async (_when, delayMs) => {
      const [older, named] = entries;
      await insert('older', older!, older!.snapshot, '2000-01-01T00:00:00Z');
      await insert('named', named!, named!.snapshot, '2000-01-01T00:00:01Z');
      const failing = {
        publish: async () => {
          await new Promise((resolve) => setTimeout(resolve, delayMs));
          throw new Error('broker unreachable');
        },
      };
      const relay = new OutboxRelay(pgDatabase(db.pool), failing, DEFAULT_CONFIG, 100);

      await expect(relay.round(['named'])).rejects.toThrow('broker unreachable');

      expect(await row('named')).toMatchObject({ published: false, parked: false, attempts: 1 });
      expect((await row('named')).last_error).toContain('broker unreachable');
      expect(await row('older')).toMatchObject({ published: false, parked: false, attempts: 0, last_error: null });
      // An infrastructure failure is not poison: the row stays pending and a working round publishes it.
      const working = busRelay();
      expect((await working.round()).published.length).toBe(2);
      await db.pool.query('DELETE FROM decision_outbox');
    },
  );

  // The relay once had a rule of its own (SQLSTATE 22, 23, 54 only), stricter than the projector's
  // failureKind: a trigger's RAISE (P0) or a JavaScript error while recording a row failed every round,
  // so that row and every row behind it stayed pending for good. Both are the record's: parked.
  it("parks a row a trigger refuses with RAISE and one whose intervention id is another tenant's; the others are published", async () => {
    const [raised, taken, ...good] = unrecorded;
    expect(good).toHaveLength(2);
    const idOf = (e: OutboxEntry) => governance.intervention(e, e.snapshot.updatedAt)!.interventionId;
    await db.pool.query(`
      CREATE FUNCTION spec_refuse_intervention() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.id = '${idOf(raised!)}' THEN RAISE EXCEPTION 'spec trigger refuses intervention %', NEW.id; END IF;
        RETURN NEW;
      END $$`);
    await db.pool.query(
      'CREATE TRIGGER spec_refuse_intervention BEFORE INSERT ON interventions FOR EACH ROW EXECUTE FUNCTION spec_refuse_intervention()',
    );
    // The id the relay will give `taken`'s intervention, already in another tenant's chain.
    await appendInterventions(pgDatabase(db.pool), [interventionFixture(idOf(taken!), 'another-tenant')]);
    try {
      // The outbox id is the entry's: the intervention id derives from it.
      await insert(raised!.id, raised!, raised!.snapshot, '2000-01-01T00:00:00Z');
      await insert(taken!.id, taken!, taken!.snapshot, '2000-01-01T00:00:01Z');
      for (const [i, e] of good.entries()) await insert(e.id, e, e.snapshot, `2000-01-01T00:01:0${i}Z`);
      const relay = busRelay();

      const round = await relay.round();

      expect(round.parked.map((p) => p.id)).toEqual([raised!.id, taken!.id]);
      expect((await row(raised!.id)).last_error).toMatch(
        /^the database refused its records: .*spec trigger refuses intervention/,
      );
      expect((await row(taken!.id)).last_error).toMatch(/^recording it failed: .*already belongs to another tenant/);
      expect(round.published.map((i) => i.interventionId)).toEqual(good.map(idOf));
      for (const e of good) expect(await row(e.id)).toMatchObject({ published: true, parked: false });
    } finally {
      await db.pool.query('DROP TRIGGER spec_refuse_intervention ON interventions');
      await db.pool.query('DROP FUNCTION spec_refuse_intervention()');
    }
  });

  it('records a round whose records all pass without savepoints; a refused record costs one more transaction', async () => {
    expect(spare).toHaveLength(4);
    await db.pool.query('DELETE FROM decision_outbox WHERE published_at IS NULL AND parked_at IS NULL');
    // Every statement the relay sends, and how many transactions it opens.
    const statements: string[] = [];
    let transactions = 0;
    const inner = pgDatabase(db.pool);
    const logged = (tx: SqlSession): SqlSession => ({
      query: (text, params) => {
        statements.push(text);
        return tx.query(text, params);
      },
    });
    const database: SqlDatabase = {
      query: (text, params) => inner.query(text, params),
      transaction: (work) => {
        transactions += 1;
        return inner.transaction((tx) => work(logged(tx)));
      },
      close: () => inner.close(),
    };
    const relay = new OutboxRelay(database, new BusInterventionPublisher(new InProcessBus(1)), DEFAULT_CONFIG, 100);
    const savepoints = () => statements.filter((text) => /^\s*SAVEPOINT\b/i.test(text)).length;

    const [first, second, refused, last] = spare;
    await insert(first!.id, first!, first!.snapshot, '2000-01-01T00:00:00Z');
    await insert(second!.id, second!, second!.snapshot, '2000-01-01T00:00:01Z');
    const clean = await relay.round();
    expect(clean.published).toHaveLength(2);
    expect({ transactions, savepoints: savepoints() }).toEqual({ transactions: 1, savepoints: 0 });

    statements.length = 0;
    transactions = 0;
    await insert(
      refused!.id,
      refused!,
      { ...refused!.snapshot, updatedAt: '0000-06-01T00:00:00.000Z' },
      '2000-01-01T00:00:02Z',
    );
    await insert(last!.id, last!, last!.snapshot, '2000-01-01T00:00:03Z');
    const mixed = await relay.round();
    expect(mixed.parked.map((p) => p.id)).toEqual([refused!.id]);
    expect(mixed.published).toHaveLength(1);
    // The batch attempt, then the same rows claimed again and recorded one by one.
    expect({ transactions, savepoints: savepoints() }).toEqual({ transactions: 2, savepoints: 2 });
    expect(await row(refused!.id)).toMatchObject({ parked: true, published: false, attempts: 1 });
    expect(await row(last!.id)).toMatchObject({ parked: false, published: true, attempts: 1 });
  });

  // Since 0053 a row holds its key's transitions of one projector transaction: they are decided, recorded and
  // parked together, and a poison transition never holds back another key's row.
  it("parks a row with its earlier transitions when one of them is refused or cannot be rebuilt; other keys' rows are published", async () => {
    await db.pool.query('DELETE FROM decision_outbox WHERE published_at IS NULL AND parked_at IS NULL');
    // Keys of a trace no earlier case used, with two transitions in a row that each call for an intervention.
    const { outbox } = governance.replay(generateTrace({ events: 600, seed: 31 }));
    const intervening = outbox.filter((e) => governance.intervention(e, e.snapshot.updatedAt) !== null);
    const byKey = new Map<string, OutboxEntry[]>();
    for (const e of intervening) byKey.set(e.keyId, [...(byKey.get(e.keyId) ?? []), e]);
    const pairs = [...byKey.values()].filter((list) => list.length >= 2).map((list) => list.slice(0, 2));
    expect(pairs.length).toBeGreaterThanOrEqual(3);
    const [[refusedEarlier, refusedLatest], [brokenEarlier, brokenLatest], [goodEarlier, goodLatest]] = pairs as [
      OutboxEntry[],
      OutboxEntry[],
      OutboxEntry[],
    ];
    const save = (latest: OutboxEntry, earlier: OutboxEntry) =>
      pgDatabase(db.pool).transaction((tx) =>
        savePreparedFold(
          tx,
          prepareFold({
            states: [latest.snapshot],
            outbox: [earlier, latest],
            checkpoints: { group: 'g', topic: 't', next: new Map() },
          }),
        ),
      );
    // An earlier transition whose issued_at (its state's updatedAt) is a year Postgres has no timestamptz for.
    await save(refusedLatest!, {
      ...refusedEarlier!,
      snapshot: { ...refusedEarlier!.snapshot, updatedAt: '0000-06-01T00:00:00.000Z' },
    });
    await save(brokenLatest!, brokenEarlier!);
    // Only a hand edit could make one: a run outside the state's list.
    await db.pool.query(
      `UPDATE decision_outbox SET earlier = json_build_array(json_build_array($2::int, '{"set":{},"slice":{"causingEventIds":[0,999]}}'::json))
        WHERE id = $1`,
      [brokenLatest!.id, brokenEarlier!.stateVersion],
    );
    await save(goodLatest!, goodEarlier!);
    const { rows } = await db.pool.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM decision_outbox WHERE id = ANY($1) AND earlier IS NOT NULL',
      [[refusedLatest!.id, brokenLatest!.id, goodLatest!.id]],
    );
    expect(rows[0]!.n).toBe(3);
    const relay = busRelay();

    const round = await relay.round();

    expect(round.claimed).toBe(3);
    expect(round.parked.map((p) => p.id).sort()).toEqual([refusedLatest!.id, brokenLatest!.id].sort());
    expect((await row(refusedLatest!.id)).last_error).toMatch(/^the database refused its records: .*out of range/);
    expect((await row(brokenLatest!.id)).last_error).toMatch(/^decision failed: .*its states cannot be rebuilt/);
    expect(await row(goodLatest!.id)).toMatchObject({ published: true, parked: false, attempts: 1 });
    const idOf = (e: OutboxEntry) => governance.intervention(e, e.snapshot.updatedAt)!.interventionId;
    expect(round.published.map((i) => i.interventionId)).toEqual([idOf(goodEarlier!), idOf(goodLatest!)]);
    expect(round.decided).toBe(2);
    // Nothing of a parked row reached the trail: its key's transitions of that transaction wait together.
    const { rows: recorded } = await db.pool.query<{ id: string }>('SELECT id FROM interventions WHERE id = ANY($1)', [
      [refusedEarlier!, refusedLatest!, brokenLatest!].map(idOf),
    ]);
    expect(recorded).toEqual([]);
  });
});
