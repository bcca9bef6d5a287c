import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@tokencircuit/testing';
import { pgDatabase, type SqlDatabase } from '../../../libs/storage/src/sql-database.js';
import { asRole } from '../../../libs/storage/src/spec-support/as-role.js';
import { episodeStep } from '../../../libs/storage/src/spec-support/episode-steps.js';
import { appendEpisodeEvents } from '../../../libs/storage/src/episodes/append-episode-events.js';

describe('appendEpisodeEvents (real Postgres)', () => {
  let db: TestDatabase;
  let sql: SqlDatabase;
  beforeAll(async () => {
    db = await createTestDatabase('tc_append_episode_events');
    sql = pgDatabase(db.pool);
  });
  afterAll(async () => db?.drop());

  const stored = async () =>
    (
      await db.pool.query(
        `SELECT event_id, tenant, key_id, episode, episode_id, transition, level, state_version, data->>'summary' AS summary
           FROM episode_events ORDER BY seq`,
      )
    ).rows;

  it('records nothing for no steps', async () => {
    await appendEpisodeEvents(sql, []);
    expect(await stored()).toEqual([]);
  });

  it("records every tenant's steps in order with their columns, as the decision service's writer role", async () => {
    await asRole(db.pool, 'tokencircuit_writer', (tx) =>
      appendEpisodeEvents(tx, [
        episodeStep({ eventId: 's-1', keyId: 'k-1', episodeId: 'ep-1' }),
        episodeStep({ eventId: 's-2', keyId: 'k-2', episodeId: 'ep-2', tenant: 'globex', level: 'block' }),
      ]),
    );
    expect(await stored()).toEqual([
      {
        event_id: 's-1',
        tenant: 'acme',
        key_id: 'k-1',
        episode: 1,
        episode_id: 'ep-1',
        transition: 'triggered',
        level: 'page',
        state_version: 1,
        summary: 'permission failures never heal by retrying',
      },
      {
        event_id: 's-2',
        tenant: 'globex',
        key_id: 'k-2',
        episode: 1,
        episode_id: 'ep-2',
        transition: 'triggered',
        level: 'block',
        state_version: 1,
        summary: 'permission failures never heal by retrying',
      },
    ]);
  });

  it('leaves a step recorded before as it is (a retried round republishes the same ids)', async () => {
    const changed = { ...episodeStep({ eventId: 's-1', keyId: 'k-1', episodeId: 'ep-1' }), summary: 'rewritten' };
    await appendEpisodeEvents(sql, [
      changed,
      episodeStep({ eventId: 's-3', keyId: 'k-1', episodeId: 'ep-1', transition: 'resolved' }),
    ]);
    const rows = await stored();
    expect(rows.map((r) => [r.event_id, r.summary])).toEqual([
      ['s-1', 'permission failures never heal by retrying'],
      ['s-2', 'permission failures never heal by retrying'],
      ['s-3', 'permission failures never heal by retrying'],
    ]);
  });

  it('refuses a transition the trail does not know, recording none of the batch', async () => {
    const unknown = { ...episodeStep({ eventId: 's-4' }), transition: 'snoozed' as 'resolved' };
    await expect(appendEpisodeEvents(sql, [episodeStep({ eventId: 's-5' }), unknown])).rejects.toMatchObject({
      code: '23514',
    });
    expect((await stored()).map((r) => r.event_id)).toEqual(['s-1', 's-2', 's-3']);
  });

  it('keeps a step of up to a page inline and uncompressed (no pglz on every append and read)', async () => {
    const big = { ...episodeStep({ eventId: 'big-1', keyId: 'k-big' }), summary: 's'.repeat(2_000) };
    await appendEpisodeEvents(sql, [big]);
    const { rows } = await db.pool.query(
      `SELECT pg_column_compression(data) AS compression, pg_column_size(e.*) AS row_size
         FROM episode_events e WHERE event_id = 'big-1'`,
    );
    expect(rows[0]!['row_size']).toBeGreaterThan(2100);
    expect(rows[0]!['compression']).toBeNull();
  });
});
