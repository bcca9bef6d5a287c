import type { EpisodeEventData } from '@tokencircuit/contracts';
import type { SqlSession } from '../sql-database.js';

/** Records lifecycle steps; a step already recorded (same event id) is left as it is. */
export async function appendEpisodeEvents(tx: SqlSession, events: readonly EpisodeEventData[]): Promise<void> {
  if (events.length === 0) return;
  await tx.query(
    `INSERT INTO episode_events (event_id, tenant, key_id, episode, episode_id, transition, level, state_version, data, occurred_at)
     SELECT e->>'eventId', e->>'tenant', e->>'keyId', (e->>'episode')::int, e->>'episodeId', e->>'transition',
            e->>'level', (e->>'stateVersion')::int, e, (e->>'occurredAt')::timestamptz
       FROM jsonb_array_elements($1::jsonb) AS e
     ON CONFLICT (event_id) DO NOTHING`,
    [JSON.stringify(events)],
  );
}
