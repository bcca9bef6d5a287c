import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@tokencircuit/testing';
import { pgDatabase, type SqlDatabase } from '../../../libs/storage/src/sql-database.js';
import { asRole } from '../../../libs/storage/src/spec-support/as-role.js';
import { episodeStep } from '../../../libs/storage/src/spec-support/episode-steps.js';
import { appendEpisodeEvents } from '../../../libs/storage/src/episodes/append-episode-events.js';
import { lockEpisodeEvents } from '../../../libs/storage/src/episodes/lock-episode-events.js';

describe('lockEpisodeEvents (real Postgres)', () => {
  let db: TestDatabase;
  let sql: SqlDatabase;
  beforeAll(async () => {
    db = await createTestDatabase('tc_lock_episode_events');
    sql = pgDatabase(db.pool);
    const step = (eventId: string, keyId: string, episode: number, tenant = 'acme') => ({
      ...episodeStep({ eventId, keyId, tenant, episodeId: `${tenant}-${keyId}-${episode}` }),
      episode,
    });
    await appendEpisodeEvents(sql, [
      step('k1-e1-trigger', 'k-1', 1),
      step('k1-e1-resolve', 'k-1', 1),
      step('k1-e2-trigger', 'k-1', 2),
      step('k1-e2-escalate', 'k-1', 2),
      step('k2-e1-trigger', 'k-2', 1),
      step('globex-k1-trigger', 'k-1', 7, 'globex'),
    ]);
  });
  afterAll(async () => db?.drop());

  const eventIds = (map: Map<string, { eventId: string }[]>) =>
    Object.fromEntries([...map].map(([key, steps]) => [key, steps.map((s) => s.eventId)]));

  it('locks and reads nothing for no keys', async () => {
    expect(await sql.transaction((tx) => lockEpisodeEvents(tx, []))).toEqual(new Map());
  });

  it("returns each key's steps of its latest episode only, oldest first, within the key's tenant", async () => {
    const recorded = await asRole(db.pool, 'tokencircuit_writer', (tx) =>
      lockEpisodeEvents(tx, [
        { tenant: 'acme', keyId: 'k-1' },
        { tenant: 'acme', keyId: 'k-2' },
        { tenant: 'acme', keyId: 'k-1' },
        { tenant: 'acme', keyId: 'k-never-failed' },
      ]),
    );
    expect(eventIds(recorded)).toEqual({ 'k-1': ['k1-e2-trigger', 'k1-e2-escalate'], 'k-2': ['k2-e1-trigger'] });
  });

  it('holds the keys until the transaction ends: a round over the same key waits, one over another key does not', async () => {
    const outcome = await sql.transaction(async (first) => {
      await lockEpisodeEvents(first, [{ tenant: 'acme', keyId: 'k-1' }]);
      const attempt = (keyId: string) =>
        sql
          .transaction(async (second) => {
            // Fails instead of waiting forever: the lock is held, not merely slow to come.
            await second.query("SET LOCAL lock_timeout = '200ms'");
            return eventIds(await lockEpisodeEvents(second, [{ tenant: 'acme', keyId }]));
          })
          .catch((e: unknown) => (e as { code?: string }).code);
      return { same: await attempt('k-1'), other: await attempt('k-2') };
    });
    expect(outcome).toEqual({ same: '55P03', other: { 'k-2': ['k2-e1-trigger'] } });
  });
});
