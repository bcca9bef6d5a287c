import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@tokencircuit/testing';
import { readAs } from '../../../libs/storage/src/spec-support/read-fixtures.js';
import { readEpisodeSteps } from '../../../libs/storage/src/episodes/read-episode-steps.js';

describe('readEpisodeSteps', () => {
  let db: TestDatabase;
  const read = (tenant: string, episodeId: string) => readAs(db.pool, tenant, (s) => readEpisodeSteps(s, episodeId));
  const step = (tenant: string, eventId: string, episodeId: string, transition: string, episode = 2) =>
    db.pool.query(
      `INSERT INTO episode_events (event_id, tenant, key_id, episode, episode_id, transition, level, state_version, data,
         occurred_at)
       VALUES ($1, $2, $3, $4, $5, $6, 'page', 1, '{}', now())`,
      [eventId, tenant, `key-${tenant}`, episode, episodeId, transition],
    );

  beforeAll(async () => {
    db = await createTestDatabase('tc_read_episode_steps');
    await step('tenant-a', 'ev-1', 'ep-a', 'triggered');
    await step('tenant-a', 'ev-x', 'ep-other', 'triggered', 1);
    await step('tenant-a', 'ev-2', 'ep-a', 'escalated');
    await step('tenant-a', 'ev-3', 'ep-a', 'acknowledged');
    await step('tenant-b', 'ev-b', 'ep-b', 'triggered');
  });
  afterAll(async () => {
    await db?.drop();
  });

  it("reads the episode's key, number and steps in the order they were recorded", async () => {
    await expect(read('tenant-a', 'ep-a')).resolves.toEqual({
      keyId: 'key-tenant-a',
      episode: 2,
      transitions: ['triggered', 'escalated', 'acknowledged'],
    });
  });

  it("is null for an episode without steps and for another tenant's episode (row-level security)", async () => {
    await expect(read('tenant-a', 'ep-none')).resolves.toBeNull();
    await expect(read('tenant-a', 'ep-b')).resolves.toBeNull();
    await expect(read('tenant-b', 'ep-b')).resolves.toMatchObject({
      keyId: 'key-tenant-b',
      transitions: ['triggered'],
    });
  });
});
