import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGovernance, DEFAULT_CONFIG, type FailureState, type OutboxEntry } from '@tokencircuit/governance';
import { createTestDatabase, generateTrace, type TestDatabase } from '@tokencircuit/testing';
import { claimOutboxRows } from '../../../libs/storage/src/outbox/claim-outbox-rows.js';
import { markOutboxPublished } from '../../../libs/storage/src/outbox/mark-outbox-published.js';
import { purgePublishedOutbox } from '../../../libs/storage/src/outbox/purge-published-outbox.js';
import { prepareFold, savePreparedFold } from '../../../libs/storage/src/projection/save-fold.js';
import { pgDatabase } from '../../../libs/storage/src/sql-database.js';

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

describe('decisions by reference and by delta: outbox rows refer to the state they decide (migrations 0039, 0047)', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase('tc_outbox_states');
  });
  afterAll(async () => db?.drop());

  const save = (states: readonly FailureState[], outbox: readonly OutboxEntry[]) =>
    pgDatabase(db.pool).transaction((tx) =>
      savePreparedFold(tx, prepareFold({ states, outbox, checkpoints: { group: 'g', topic: 't', next: new Map() } })),
    );
  const claim = (ids: readonly string[]) =>
    pgDatabase(db.pool).transaction((tx) => claimOutboxRows(tx, { limit: 10, ids }));
  const kept = async (keyId: string) =>
    (
      await db.pool.query<{ key_id: string; state_version: number }>(
        'SELECT key_id, state_version FROM outbox_states WHERE key_id = $1',
        [keyId],
      )
    ).rows;

  it('the latest transition refers to the state row; an earlier one of the same chunk carries a delta against it; the claim reads each one its own state, byte for byte', async () => {
    const [a, b] = transitionsOfKey(0);
    await save([b!.snapshot], [a!, b!]);
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

  it('the base of a pending delta is kept when its key moves on, even after its own row was published, and goes with the last row that needs it', async () => {
    const [a, b, c] = transitionsOfKey(4);
    await save([b!.snapshot], [a!, b!]);
    await pgDatabase(db.pool).transaction((tx) => markOutboxPublished(tx, [b!.id]));
    expect(await kept(b!.keyId)).toEqual([]);
    await save([c!.snapshot], [c!]); // failure_state moves past b while a (a delta on b) is pending
    expect(await kept(b!.keyId)).toEqual([{ key_id: b!.keyId, state_version: b!.stateVersion }]);
    expect((await claim([a!.id])).map((r) => JSON.stringify(r.stateSnapshot))).toEqual([JSON.stringify(a!.snapshot)]);
    await pgDatabase(db.pool).transaction((tx) => markOutboxPublished(tx, [a!.id]));
    expect(await kept(b!.keyId)).toEqual([]);
  });

  it('publishing the base row before its dependents leaves the kept base in place; publishing them drops it', async () => {
    const [a, b, c] = transitionsOfKey(5);
    await save([b!.snapshot], [a!, b!]);
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

  it('the retention purge leaves a published base row alone while a delta on it is pending, so its state is still kept when the key moves on', async () => {
    const [a, b, c] = transitionsOfKey(7);
    await save([b!.snapshot], [a!, b!]);
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
    const { rows } = await db.pool.query<{ id: string }>('SELECT id FROM decision_outbox WHERE key_id = $1', [b!.keyId]);
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
