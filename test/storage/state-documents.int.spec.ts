import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGovernance, DEFAULT_CONFIG, keyCoordinatesOf, type FailureState } from '@tokencircuit/governance';
import {
  claimOutboxRows,
  transitionsOf,
  loadCandidateStates,
  pgDatabase,
  prepareFold,
  readFailureState,
  savePreparedFold,
  selectCandidateStates,
} from '@tokencircuit/storage';
import { createTestDatabase, generateTrace, type TestDatabase } from '@tokencircuit/testing';
import { FAILURE_STATE_ROW_JSON } from '../../libs/storage/src/replay/failure-state-row-json.js';

const governance = createGovernance(DEFAULT_CONFIG);

/**
 * failure_state documents stored without the key the row's columns hold (stateDocumentText), next to documents an
 * older build wrote whole: every reader gets the same states back from both, and replay compares them as equal.
 */
describe('failure_state documents without their key, beside whole ones (real Postgres)', () => {
  let test: TestDatabase;
  beforeAll(async () => {
    test = await createTestDatabase('storage_state_documents');
  });
  afterAll(async () => {
    await test?.drop();
  });

  it('reads the same states from both through every reader, and replay sees no difference', async () => {
    const db = pgDatabase(test.pool);
    const { states, outbox } = governance.replay(generateTrace({ events: 1_200, seed: 8 }));
    const all = [...states.values()];
    await db.transaction((tx) =>
      savePreparedFold(
        tx,
        prepareFold({ states: all, outbox, checkpoints: { group: 'g', topic: 't', next: new Map() } }),
      ),
    );
    const sizes = await test.pool.query<{ cut: number; whole: number }>(
      `SELECT count(*) FILTER (WHERE left(state::text, 9) <> '{"keyId":')::int AS cut,
              count(*) FILTER (WHERE left(state::text, 9) = '{"keyId":')::int AS whole FROM failure_state`,
    );
    expect(sizes.rows[0]).toEqual({ cut: all.length, whole: 0 });

    const rowsBefore = await replayRows();
    // Every other key as the build before wrote it: the whole state, its key included.
    const older = all.filter((_, i) => i % 2 === 0);
    for (const state of older)
      await test.pool.query('UPDATE failure_state SET state = $2::json WHERE key_id = $1', [
        state.keyId,
        JSON.stringify(state),
      ]);
    expect(await replayRows()).toEqual(rowsBefore);

    const text = (state: FailureState | null | undefined) => JSON.stringify(state);
    for (const state of all) expect(text((await readFailureState(db, state.keyId))?.state)).toBe(text(state));

    const loaded = await db.transaction((tx) =>
      loadCandidateStates(tx, { runTools: [], fleetResources: [], keyIds: all.map((s) => s.keyId) }),
    );
    expect(loaded.states.size).toBe(all.length);
    for (const state of all) expect(text(loaded.states.get(state.keyId))).toBe(text(state));

    for (const state of all.slice(0, 40)) {
      const at = keyCoordinatesOf(state.keyId)!;
      const selection =
        at.scope === 'run'
          ? { tenant: at.tenant, keyId: null, runKeys: { run: at.run, tool: at.tool }, fleetKeys: null }
          : {
              tenant: at.tenant,
              keyId: null,
              runKeys: null,
              fleetKeys: { principal: at.principal!, resourceId: at.resourceId },
            };
      const selected = await selectCandidateStates(db, { ...selection, resolved: 'all' });
      expect(selected.map(text)).toContain(text(state));
    }

    // The decision service decides each transition on its own state, whichever form its key's row is in.
    const claimed = (await db.transaction((tx) => claimOutboxRows(tx, { limit: outbox.length }))).flatMap(
      transitionsOf,
    );
    expect(claimed).toHaveLength(outbox.length);
    const byId = new Map(outbox.map((e) => [e.id, e.snapshot]));
    for (const t of claimed) expect(text(t.stateSnapshot)).toBe(text(byId.get(t.id)));
  });

  const replayRows = async () =>
    (
      await test.pool.query<{ key_id: string; row: unknown }>(
        `SELECT f.key_id, ${FAILURE_STATE_ROW_JSON} AS row FROM failure_state f ORDER BY key_id`,
      )
    ).rows;
});
