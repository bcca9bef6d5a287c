import type { SqlSession } from '../sql-database.js';
import type { episodeEvents } from '../tables/episode-events.js';

/** The lifecycle steps recorded for one episode, in the order they were recorded. */
export type EpisodeSteps = Pick<typeof episodeEvents.$inferSelect, 'keyId' | 'episode'> & {
  /** episode_events.transition of each step. */
  readonly transitions: string[];
};

/**
 * The steps of the episode with this id, or null when none is recorded. Under withTenant another tenant's
 * episode is simply not there.
 */
export async function readEpisodeSteps(session: SqlSession, episodeId: string): Promise<EpisodeSteps | null> {
  const { rows } = await session.query<EpisodeSteps>(
    `SELECT key_id AS "keyId", episode, array_agg(transition ORDER BY seq) AS transitions
       FROM episode_events WHERE episode_id = $1 GROUP BY key_id, episode`,
    [episodeId],
  );
  // One episode id is one (key, episode): it is a UUIDv5 of both (ADR 0005).
  const row = rows[0];
  return row ? { keyId: row.keyId, episode: Number(row.episode), transitions: row.transitions } : null;
}
