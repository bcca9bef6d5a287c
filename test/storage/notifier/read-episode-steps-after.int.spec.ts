import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@tokencircuit/testing';
import { appendEpisodeEvents } from '../../../libs/storage/src/episodes/append-episode-events.js';
import { pgDatabase, type SqlDatabase } from '../../../libs/storage/src/sql-database.js';
import { asRole } from '../../../libs/storage/src/spec-support/as-role.js';
import { episodeStep } from '../../../libs/storage/src/spec-support/episode-steps.js';
import { readEpisodeStepsAfter } from '../../../libs/storage/src/notifier/read-episode-steps-after.js';

describe('readEpisodeStepsAfter (real Postgres)', () => {
  let db: TestDatabase;
  let sql: SqlDatabase;
  beforeAll(async () => {
    db = await createTestDatabase('tc_read_episode_steps');
    sql = pgDatabase(db.pool);
  });
  afterAll(async () => db?.drop());

  it('reads nothing from an empty trail', async () => {
    expect(await readEpisodeStepsAfter(sql, '0', 10)).toEqual([]);
  });

  it('reads the steps after a position in seq order, up to the limit, with the seq to move to', async () => {
    await appendEpisodeEvents(sql, [
      episodeStep({ eventId: 'step-1' }),
      episodeStep({ eventId: 'step-2', tenant: 'globex', episodeId: 'episode-2' }),
      episodeStep({ eventId: 'step-3', transition: 'resolved' }),
    ]);
    const all = await asRole(db.pool, 'tokencircuit_writer', (tx) => readEpisodeStepsAfter(tx, '0', 10));
    expect(all.map((s) => s.data.eventId)).toEqual(['step-1', 'step-2', 'step-3']);
    expect(all[2]!.data).toEqual(episodeStep({ eventId: 'step-3', transition: 'resolved' }));
    const page = await readEpisodeStepsAfter(sql, all[0]!.seq, 1);
    expect(page).toEqual([all[1]]);
    expect(await readEpisodeStepsAfter(sql, all[2]!.seq, 10)).toEqual([]);
  });

  it("reads only its own tenant's steps under a tenant's setting", async () => {
    const steps = await asRole(db.pool, 'tokencircuit_audit', (tx) => readEpisodeStepsAfter(tx, '0', 10), 'globex');
    expect(steps.map((s) => s.data.eventId)).toEqual(['step-2']);
  });

  it("reads every tenant's steps as the notifier role, which has no tenant setting (migration 0031)", async () => {
    const steps = await asRole(db.pool, 'tokencircuit_notifier', (tx) => readEpisodeStepsAfter(tx, '0', 10));
    expect(steps.map((s) => [s.data.tenant, s.data.eventId])).toEqual([
      ['acme', 'step-1'],
      ['globex', 'step-2'],
      ['acme', 'step-3'],
    ]);
  });
});
