import type { EpisodeEventData } from '@tokencircuit/contracts';
import { EPISODE_LOCK_CLASS } from './advisory-locks.js';
import type { SqlSession } from './sql-database.js';

/**
 * Locks the keys' episode lifecycles until the transaction ends (one global order, so two relay rounds
 * over the same keys queue instead of deadlocking) and returns each key's recorded steps of its latest
 * episode, oldest first. Run inside the relay's transaction, before deciding the keys' next steps.
 */
export async function lockEpisodeEvents(
  tx: SqlSession,
  keys: readonly { tenant: string; keyId: string }[],
): Promise<Map<string, EpisodeEventData[]>> {
  const byKey = new Map<string, EpisodeEventData[]>();
  if (keys.length === 0) return byKey;
  const keyIds = [...new Set(keys.map((k) => k.keyId))];
  await tx.query(
    `SELECT count(pg_advisory_xact_lock($1, key))
       FROM (SELECT DISTINCT hashtext(key_id) AS key FROM unnest($2::text[]) AS k(key_id) ORDER BY key) AS ordered`,
    [EPISODE_LOCK_CLASS, keyIds],
  );
  const { rows } = await tx.query<{ key_id: string; data: EpisodeEventData }>(
    `SELECT e.key_id, e.data
       FROM unnest($1::text[], $2::text[]) AS k(tenant, key_id)
       JOIN LATERAL (
         SELECT max(episode) AS episode FROM episode_events m WHERE m.tenant = k.tenant AND m.key_id = k.key_id
       ) AS latest ON true
       JOIN episode_events e ON e.tenant = k.tenant AND e.key_id = k.key_id AND e.episode = latest.episode
      ORDER BY e.seq`,
    [keys.map((k) => k.tenant), keys.map((k) => k.keyId)],
  );
  for (const row of rows) {
    const list = byKey.get(row.key_id) ?? [];
    list.push(row.data);
    byKey.set(row.key_id, list);
  }
  return byKey;
}

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
