import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGovernance, DEFAULT_CONFIG, type FailureState, type OutboxEntry } from '@tokencircuit/governance';
import { createTestDatabase, generateTrace, type TestDatabase } from '@tokencircuit/testing';
import { claimOutboxRows, transitionsOf } from '../../../libs/storage/src/outbox/claim-outbox-rows.js';
import { markOutboxPublished } from '../../../libs/storage/src/outbox/mark-outbox-published.js';
import { purgePublishedOutbox } from '../../../libs/storage/src/outbox/purge-published-outbox.js';
import { prepareFold, savePreparedFold } from '../../../libs/storage/src/projection/save-fold.js';
import { pgDatabase } from '../../../libs/storage/src/sql-database.js';
import { savePre0053Fold } from '../../../libs/storage/src/spec-support/pre-0053-save-fold.js';

const governance = createGovernance(DEFAULT_CONFIG);

/** Three successive transitions of the n-th key (of a generated trace's reference fold) that has three: one key per test. */
function transitionsOfKey(n: number): OutboxEntry[] {
  const { outbox } = governance.replay(generateTrace({ events: 2_000, seed: 9 }));
  const byKey = new Map<string, OutboxEntry[]>();
  for (const entry of outbox) byKey.set(entry.keyId, [...(byKey.get(entry.keyId) ?? []), entry]);
  const entries = [...byKey.values()].filter((list) => list.length >= 3)[n];
  if (entries === undefined) throw new Error(`the trace has no ${n + 1} keys with three transitions`);
  return entries.slice(0, 3);
}

const json = (state: FailureState): unknown => JSON.parse(JSON.stringify(state));

describe('decisions by reference and by delta: outbox rows refer to the state they decide (migrations 0039, 0047, 0053)', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase('tc_outbox_states');
  });
  afterAll(async () => db?.drop());

  const save = (states: readonly FailureState[], outbox: readonly OutboxEntry[]) =>
    pgDatabase(db.pool).transaction((tx) =>
      savePreparedFold(tx, prepareFold({ states, outbox, checkpoints: { group: 'g', topic: 't', next: new Map() } })),
    );
  // Rows as the build before 0053 wrote them: an earlier transition of the key a row of its own, with a delta.
  const saveBefore0053 = (states: readonly FailureState[], outbox: readonly OutboxEntry[]) =>
    pgDatabase(db.pool).transaction((tx) => savePre0053Fold(tx, { states, outbox }));
  const claimRows = (ids: readonly string[]) =>
    pgDatabase(db.pool).transaction((tx) => claimOutboxRows(tx, { limit: 10, ids }));
  /** Every transition the rows named hold, as the relay decides them. */
  const claim = async (ids: readonly string[]) => (await claimRows(ids)).flatMap(transitionsOf);
  const kept = async (keyId: string) =>
    (
      await db.pool.query<{ key_id: string; state_version: number }>(
        'SELECT key_id, state_version FROM outbox_states WHERE key_id = $1',
        [keyId],
      )
    ).rows;

  it('one row per key and transaction: the latest transition refers to the state row and carries the earlier ones as deltas against it; the claim reads each its own state, byte for byte', async () => {
    const [a, b, c] = transitionsOfKey(8);
    await save([c!.snapshot], [a!, b!, c!]);
    const { rows } = await db.pool.query<{
      id: string;
      copied: boolean;
      delta: boolean;
      earlier: [number, unknown][] | null;
    }>(
      `SELECT id, state_snapshot IS NOT NULL AS copied, state_delta IS NOT NULL AS delta, earlier
         FROM decision_outbox WHERE key_id = $1`,
      [a!.keyId],
    );
    expect(rows.map((r) => ({ ...r, earlier: r.earlier?.map(([v]) => v) }))).toEqual([
      { id: c!.id, copied: false, delta: false, earlier: [a!.stateVersion, b!.stateVersion] },
    ]);
    const claimed = await claim([c!.id]);
    expect(claimed.map((t) => [t.id, t.stateVersion, JSON.stringify(t.stateSnapshot)])).toEqual(
      [a!, b!, c!].map((e) => [e.id, e.stateVersion, JSON.stringify(e.snapshot)]),
    );
    expect(await kept(a!.keyId)).toEqual([]);
    const { rows: view } = await db.pool.query<{ id: string; row_id: string }>(
      'SELECT id, row_id FROM decision_outbox_transitions WHERE key_id = $1 ORDER BY state_version',
      [a!.keyId],
    );
    expect(view).toEqual([a!, b!, c!].map((e) => ({ id: e.id, row_id: c!.id })));
  });

  it('a row with earlier transitions keeps its state when its key moves on while it is pending; publishing it drops the copy', async () => {
    const [a, b, c] = transitionsOfKey(9);
    await save([b!.snapshot], [a!, b!]);
    await save([c!.snapshot], [c!]);
    expect(await kept(b!.keyId)).toEqual([{ key_id: b!.keyId, state_version: b!.stateVersion }]);
    expect((await claim([b!.id])).map((t) => JSON.stringify(t.stateSnapshot))).toEqual(
      [a!, b!].map((e) => JSON.stringify(e.snapshot)),
    );
    await pgDatabase(db.pool).transaction((tx) => markOutboxPublished(tx, [b!.id]));
    expect(await kept(b!.keyId)).toEqual([]);
  });

  it('the retention purge keeps the id of every transition a purged row held (replay counts them as decided)', async () => {
    const [a, b] = transitionsOfKey(10);
    await save([b!.snapshot], [a!, b!]);
    await pgDatabase(db.pool).transaction((tx) => markOutboxPublished(tx, [b!.id]));
    await db.pool.query(`UPDATE decision_outbox SET published_at = now() - interval '30 days' WHERE id = $1`, [b!.id]);
    await purgePublishedOutbox(pgDatabase(db.pool), { olderThanHours: 24, limit: 1_000 });
    const { rows } = await db.pool.query<{ id: string }>(
      'SELECT id FROM decision_outbox_purged WHERE id = ANY($1) ORDER BY id',
      [[a!.id, b!.id]],
    );
    expect(rows.map((r) => r.id)).toEqual([a!.id, b!.id].sort());
  });

  it('a row whose earlier transitions cannot be rebuilt claims as unreadable, with no states (the relay parks it, with the reason)', async () => {
    const [a, b] = transitionsOfKey(11);
    await save([b!.snapshot], [b!]);
    // Only a hand edit could make one: a run outside the state's list, a version above the row's own, no version.
    for (const earlier of [
      [[a!.stateVersion, { set: {}, slice: { causingEventIds: [0, 999] } }]],
      [[b!.stateVersion + 1, { set: {} }]],
      [['v1', { set: {} }], { set: {} }],
    ]) {
      await db.pool.query('UPDATE decision_outbox SET earlier = $2 WHERE id = $1', [b!.id, JSON.stringify(earlier)]);
      const [row] = await claimRows([b!.id]);
      expect(row).toMatchObject({ id: b!.id, stateSnapshot: null, earlier: [] });
      expect(row!.unreadable).toMatch(/^its states cannot be rebuilt: /);
      // The transitions view still answers (audit queries), listing the row's own transition as it is.
      const { rows } = await db.pool.query<{ id: string | null; state_version: number | null }>(
        'SELECT id, state_version FROM decision_outbox_transitions WHERE row_id = $1',
        [b!.id],
      );
      expect(rows).toContainEqual({ id: b!.id, state_version: b!.stateVersion });
      expect(rows).toHaveLength(1 + earlier.length);
    }
  });

  it('before 0053: the latest transition refers to the state row; an earlier one of the same chunk carries a delta against it in a row of its own; the claim reads each one its own state, byte for byte', async () => {
    const [a, b] = transitionsOfKey(0);
    await saveBefore0053([b!.snapshot], [a!, b!]);
    const { rows } = await db.pool.query<{
      id: string;
      copied: boolean;
      base_version: number | null;
      delta: boolean;
      dependents_from: number | null;
    }>(
      `SELECT id, state_snapshot IS NOT NULL AS copied, base_version, state_delta IS NOT NULL AS delta, dependents_from
         FROM decision_outbox WHERE id = ANY($1) ORDER BY state_version`,
      [[a!.id, b!.id]],
    );
    expect(rows).toEqual([
      { id: a!.id, copied: false, base_version: b!.stateVersion, delta: true, dependents_from: null },
      { id: b!.id, copied: false, base_version: null, delta: false, dependents_from: a!.stateVersion },
    ]);
    const claimed = await claim([a!.id, b!.id]);
    expect(new Map(claimed.map((r) => [r.id, JSON.stringify(r.stateSnapshot)]))).toEqual(
      new Map([
        [a!.id, JSON.stringify(a!.snapshot)],
        [b!.id, JSON.stringify(b!.snapshot)],
      ]),
    );
    expect(await kept(a!.keyId)).toEqual([]);
  });

  it('a transition before its key latest one keeps a copy when the latest state has no outbox row of its own', async () => {
    const [a, b] = transitionsOfKey(6);
    // b's state is written without a row for it (its transition needed no decision): nothing keeps it for a.
    await save([b!.snapshot], [a!]);
    const { rows } = await db.pool.query<{ copied: boolean; delta: boolean }>(
      'SELECT state_snapshot IS NOT NULL AS copied, state_delta IS NOT NULL AS delta FROM decision_outbox WHERE id = $1',
      [a!.id],
    );
    expect(rows).toEqual([{ copied: true, delta: false }]);
    expect((await claim([a!.id])).map((r) => JSON.stringify(r.stateSnapshot))).toEqual([JSON.stringify(a!.snapshot)]);
  });

  it('before 0053: the base of a pending delta is kept when its key moves on, even after its own row was published, and goes with the last row that needs it', async () => {
    const [a, b, c] = transitionsOfKey(4);
    await saveBefore0053([b!.snapshot], [a!, b!]);
    await pgDatabase(db.pool).transaction((tx) => markOutboxPublished(tx, [b!.id]));
    expect(await kept(b!.keyId)).toEqual([]);
    await save([c!.snapshot], [c!]); // failure_state moves past b while a (a delta on b) is pending
    expect(await kept(b!.keyId)).toEqual([{ key_id: b!.keyId, state_version: b!.stateVersion }]);
    expect((await claim([a!.id])).map((r) => JSON.stringify(r.stateSnapshot))).toEqual([JSON.stringify(a!.snapshot)]);
    await pgDatabase(db.pool).transaction((tx) => markOutboxPublished(tx, [a!.id]));
    expect(await kept(b!.keyId)).toEqual([]);
  });

  it('before 0053: publishing the base row before its dependents leaves the kept base in place; publishing them drops it', async () => {
    const [a, b, c] = transitionsOfKey(5);
    await saveBefore0053([b!.snapshot], [a!, b!]);
    await save([c!.snapshot], [c!]); // both pending: b's state is kept
    expect(await kept(b!.keyId)).toEqual([{ key_id: b!.keyId, state_version: b!.stateVersion }]);
    await pgDatabase(db.pool).transaction((tx) => markOutboxPublished(tx, [b!.id]));
    expect(await kept(b!.keyId)).toEqual([{ key_id: b!.keyId, state_version: b!.stateVersion }]);
    expect((await claim([a!.id])).map((r) => JSON.stringify(r.stateSnapshot))).toEqual([JSON.stringify(a!.snapshot)]);
    await pgDatabase(db.pool).transaction((tx) => markOutboxPublished(tx, [a!.id]));
    expect(await kept(b!.keyId)).toEqual([]);
  });

  it('a later transaction moving the state past a pending referred version keeps that version for it; publishing the row drops the copy', async () => {
    const [, b, c] = transitionsOfKey(1);
    await save([b!.snapshot], [b!]); // pending, referring to failure_state at b's version
    await save([c!.snapshot], [c!]);
    expect(await kept(b!.keyId)).toEqual([{ key_id: b!.keyId, state_version: b!.stateVersion }]);
    const claimed = await claim([b!.id, c!.id]);
    expect(new Map(claimed.map((r) => [r.id, r.stateSnapshot]))).toEqual(
      new Map([
        [b!.id, json(b!.snapshot)],
        [c!.id, json(c!.snapshot)],
      ]),
    );
    await pgDatabase(db.pool).transaction((tx) => markOutboxPublished(tx, [b!.id]));
    expect(await kept(b!.keyId)).toEqual([]);
  });

  it('before 0053: the retention purge leaves a published base row alone while a delta on it is pending, so its state is still kept when the key moves on', async () => {
    const [a, b, c] = transitionsOfKey(7);
    await saveBefore0053([b!.snapshot], [a!, b!]);
    await pgDatabase(db.pool).transaction((tx) => markOutboxPublished(tx, [b!.id]));
    await db.pool.query(`UPDATE decision_outbox SET published_at = now() - interval '30 days' WHERE id = $1`, [b!.id]);
    await purgePublishedOutbox(pgDatabase(db.pool), { olderThanHours: 24, limit: 1_000 });
    await save([c!.snapshot], [c!]);
    expect(await kept(b!.keyId)).toEqual([{ key_id: b!.keyId, state_version: b!.stateVersion }]);
    expect((await claim([a!.id])).map((r) => JSON.stringify(r.stateSnapshot))).toEqual([JSON.stringify(a!.snapshot)]);
    await pgDatabase(db.pool).transaction((tx) => markOutboxPublished(tx, [a!.id]));
    expect(await kept(b!.keyId)).toEqual([]);
    await db.pool.query(`UPDATE decision_outbox SET published_at = now() - interval '30 days' WHERE id = ANY($1)`, [
      [a!.id, c!.id],
    ]);
    await purgePublishedOutbox(pgDatabase(db.pool), { olderThanHours: 24, limit: 1_000 });
    const { rows } = await db.pool.query<{ id: string }>('SELECT id FROM decision_outbox WHERE key_id = $1', [
      b!.keyId,
    ]);
    expect(rows).toEqual([]);
  });

  it('keeps nothing for a published row: it will never be decided again', async () => {
    const [, , c] = transitionsOfKey(2);
    await save([c!.snapshot], [c!]);
    await pgDatabase(db.pool).transaction((tx) => markOutboxPublished(tx, [c!.id]));
    const later: FailureState = { ...c!.snapshot, version: c!.snapshot.version + 1 };
    await save([later], []);
    expect(await kept(c!.keyId)).toEqual([]);
    const { rows } = await db.pool.query<{ version: number }>('SELECT version FROM failure_state WHERE key_id = $1', [
      c!.keyId,
    ]);
    expect(rows).toEqual([{ version: later.version }]);
  });

  it('a referred state that is gone claims as null (the relay parks such a row, with the reason)', async () => {
    const [, , c] = transitionsOfKey(3);
    // A row whose version neither failure_state nor outbox_states holds (only a hand edit could make one).
    await db.pool.query(`INSERT INTO decision_outbox (id, tenant, key_id, state_version) VALUES ($1, $2, $3, $4)`, [
      `${c!.keyId}@v999`,
      c!.tenant,
      c!.keyId,
      999,
    ]);
    const claimed = await claim([`${c!.keyId}@v999`]);
    expect(claimed).toMatchObject([{ id: `${c!.keyId}@v999`, stateSnapshot: null }]);
  });
});
