import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@tokencircuit/testing';
import { appendEpisodeEvents } from '../../../libs/storage/src/episodes/append-episode-events.js';
import { pgDatabase, type SqlDatabase } from '../../../libs/storage/src/sql-database.js';
import { episodeStep } from '../../../libs/storage/src/spec-support/episode-steps.js';
import { ensureNotifierCheckpoint } from '../../../libs/storage/src/notifier/ensure-notifier-checkpoint.js';
import { lockNotifierCheckpoint } from '../../../libs/storage/src/notifier/lock-notifier-checkpoint.js';

describe('ensureNotifierCheckpoint (real Postgres)', () => {
  let db: TestDatabase;
  let sql: SqlDatabase;
  beforeAll(async () => {
    db = await createTestDatabase('tc_ensure_notifier_checkpoint');
    sql = pgDatabase(db.pool);
  });
  afterAll(async () => db?.drop());

  const position = (source: string) => sql.transaction((tx) => lockNotifierCheckpoint(tx, source));

  it('starts at 0 either way while no step is recorded', async () => {
    await ensureNotifierCheckpoint(sql, 'empty-latest', 'latest');
    await ensureNotifierCheckpoint(sql, 'empty-earliest', 'earliest');
    expect([await position('empty-latest'), await position('empty-earliest')]).toEqual(['0', '0']);
  });

  it('starts at the newest step for latest and before the first for earliest, and keeps a checkpoint that exists', async () => {
    await appendEpisodeEvents(sql, [
      episodeStep({ eventId: 'step-1' }),
      episodeStep({ eventId: 'step-2', tenant: 'globex', episodeId: 'episode-2' }),
    ]);
    const { rows } = await db.pool.query<{ newest: string }>('SELECT max(seq)::text AS newest FROM episode_events');
    await ensureNotifierCheckpoint(sql, 'latest', 'latest');
    await ensureNotifierCheckpoint(sql, 'earliest', 'earliest');
    expect([await position('latest'), await position('earliest')]).toEqual([rows[0]!.newest, '0']);
    await ensureNotifierCheckpoint(sql, 'earliest', 'latest');
    await ensureNotifierCheckpoint(sql, 'empty-latest', 'latest');
    expect([await position('earliest'), await position('empty-latest')]).toEqual(['0', '0']);
  });
});
