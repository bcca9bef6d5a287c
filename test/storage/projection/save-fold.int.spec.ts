import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGovernance, DEFAULT_CONFIG } from '@tokencircuit/governance';
import { createTestDatabase, generateTrace, type TestDatabase } from '@tokencircuit/testing';
import { readCheckpoints } from '../../../libs/storage/src/checkpoints/read-checkpoints.js';
import { pgDatabase } from '../../../libs/storage/src/sql-database.js';
import { readOutboxTransitions } from '../../../libs/storage/src/spec-support/outbox-rows.js';
import { stateKeyColumns, stateOfRow } from '../../../libs/storage/src/state/state-document.js';
import { prepareFold, savePreparedFold } from '../../../libs/storage/src/projection/save-fold.js';

const governance = createGovernance(DEFAULT_CONFIG);

describe('savePreparedFold(prepareFold(…)) (real Postgres)', () => {
  let test: TestDatabase;
  beforeAll(async () => {
    test = await createTestDatabase('storage_save_fold');
  });
  afterAll(async () => {
    await test?.drop();
  });

  it('writes states, outbox rows and the checkpoint in one statement; again is a no-op; checkpoints never go back', async () => {
    const db = pgDatabase(test.pool);
    const { states, outbox } = governance.replay(generateTrace({ events: 300, seed: 5 }));
    expect(states.size).toBeGreaterThan(0);
    expect(outbox.length).toBeGreaterThan(0);
    const fold = {
      states: [...states.values()],
      outbox,
      checkpoints: {
        group: 'g',
        topic: 't',
        next: new Map([
          [0, 300n],
          [1, 7n],
        ]),
      },
    };
    await db.transaction((tx) => savePreparedFold(tx, prepareFold(fold)));
    const stored = async () => ({
      // Read as every reader does (stateOfRow): a document is stored without the key its columns hold.
      states: (
        await test.pool.query(`SELECT state, ${stateKeyColumns()}, version, status FROM failure_state ORDER BY key_id`)
      ).rows.map((r) => ({
        key_id: r['key_id'],
        state: stateOfRow(r['state'], r),
        version: r['version'],
        status: r['status'],
      })),
      outbox: (await readOutboxTransitions(db)).map((t) => ({ ...t, snapshot: JSON.stringify(t.snapshot) })),
      rows: (await test.pool.query('SELECT id FROM decision_outbox ORDER BY id')).rows.map((r) => r['id'] as string),
    });
    const first = await stored();
    expect(new Map(first.states.map((r) => [r['key_id'], r['state']]))).toEqual(new Map(states));
    expect(first.outbox.map((t) => t.id).sort()).toEqual(outbox.map((e) => e.id).sort());
    // Each transition gets its own entry's snapshot, byte for byte: the key's latest the state row its row refers
    // to, an earlier one that state with its delta laid over it (or, where no delta can do, its own copy).
    expect(new Map(first.outbox.map((t) => [t.id, t.snapshot]))).toEqual(
      new Map(outbox.map((e) => [e.id, JSON.stringify(e.snapshot)])),
    );
    expect(new Map(first.outbox.map((t) => [t.id, t.kind === 'reference']))).toEqual(
      new Map(outbox.map((e) => [e.id, states.get(e.keyId)!.version === e.stateVersion])),
    );
    // One row per key (migration 0053): a key's earlier transitions travel in the row of its latest.
    expect(first.outbox.some((t) => t.kind === 'earlier')).toBe(true);
    expect(first.outbox.some((t) => t.kind === 'delta')).toBe(false);
    expect(
      first.outbox
        .filter((t) => t.kind === 'earlier')
        .every((t) => t.rowId === `${t.keyId}@v${states.get(t.keyId)!.version}`),
    ).toBe(true);
    expect(first.rows.length).toBe(first.outbox.filter((t) => t.kind !== 'earlier').length);
    expect(first.rows.length).toBeLessThan(outbox.length);
    expect(outbox.some((e) => states.get(e.keyId) === e.snapshot)).toBe(true);
    expect(outbox.some((e) => states.get(e.keyId) !== e.snapshot)).toBe(true);

    await db.transaction((tx) =>
      savePreparedFold(
        tx,
        prepareFold({
          ...fold,
          checkpoints: {
            group: 'g',
            topic: 't',
            next: new Map([
              [0, 5n],
              [1, 9n],
            ]),
          },
        }),
      ),
    );
    expect(await stored()).toEqual(first);
    expect(await readCheckpoints(db, 'g', 't')).toEqual(
      new Map([
        [0, 300n],
        [1, 9n],
      ]),
    );
  });

  it('keeps a state and its snapshot of up to a page as json text, inline and uncompressed (no pglz, no jsonb tree, on every write and read)', async () => {
    const db = pgDatabase(test.pool);
    const { states, outbox } = governance.replay(generateTrace({ events: 400, seed: 11 }));
    // Receipts make the row ~2.5 kB: past the default 2 kB toast_tuple_target, where Postgres would compress it.
    const [first] = [...states.values()];
    const big = { ...first!, keyId: 'inline-check', lastReceipts: ['x'.repeat(900), 'y'.repeat(900)] };
    // An earlier transition than the state written (a copy): the latest one refers to the state row instead.
    const entry = {
      ...outbox[0]!,
      id: 'inline-check@v0',
      keyId: 'inline-check',
      stateVersion: big.version - 1,
      snapshot: big,
    };
    await db.transaction((tx) =>
      savePreparedFold(
        tx,
        prepareFold({ states: [big], outbox: [entry], checkpoints: { group: 'inline', topic: 't', next: new Map() } }),
      ),
    );
    const { rows } = await test.pool.query(
      `SELECT pg_typeof(s.state)::text AS type, pg_column_size(s.state) AS stored, octet_length(s.state::text) AS plain,
              pg_column_size(o.state_snapshot) AS snapshot_stored, octet_length(o.state_snapshot::text) AS snapshot_text,
              pg_column_size(s.*) AS row_size
         FROM failure_state s JOIN decision_outbox o ON o.key_id = s.key_id WHERE s.key_id = 'inline-check'`,
    );
    expect(rows[0]!['row_size']).toBeGreaterThan(2100);
    // json (0034): the text as written, neither parsed into jsonb's tree on the way in nor printed on the way out.
    expect(rows[0]!['type']).toBe('json');
    expect(rows[0]!['stored']).toBeGreaterThanOrEqual(rows[0]!['plain']);
    expect(rows[0]!['snapshot_stored']).toBeGreaterThanOrEqual(rows[0]!['snapshot_text']);
  });

  it('writes nothing for an empty fold', async () => {
    const db = pgDatabase(test.pool);
    await savePreparedFold(
      db,
      prepareFold({ states: [], outbox: [], checkpoints: { group: 'empty', topic: 't', next: new Map() } }),
    );
    expect(await readCheckpoints(db, 'empty', 't')).toEqual(new Map());
  });
});
