import { EPISODE_LOCK_CLASS } from '../advisory-locks.js';
import type { SqlSession } from '../sql-database.js';
import type { EpisodeEventRow } from '../tables/episode-events.js';

type RecordedStep = EpisodeEventRow['data'];

/**
 * Locks the keys' episode lifecycles until the transaction ends (one global order, so two relay rounds
 * over the same keys queue instead of deadlocking) and returns each key's recorded steps of its latest
 * episode, oldest first (once, however often the key is named). Run inside the relay's transaction, before deciding the keys' next steps.
 */
export async function lockEpisodeEvents(
  tx: SqlSession,
  keys: readonly { tenant: string; keyId: string }[],
): Promise<Map<string, RecordedStep[]>> {
  const byKey = new Map<string, RecordedStep[]>();
  if (keys.length === 0) return byKey;
  const keyIds = [...new Set(keys.map((k) => k.keyId))];
  // A round holds several versions of one key: its steps are read once.
  const pairs = [...new Map(keys.map((k) => [JSON.stringify([k.tenant, k.keyId]), k])).values()];
  await tx.query(
    `SELECT count(pg_advisory_xact_lock($1, key))
       FROM (SELECT DISTINCT hashtext(key_id) AS key FROM unnest($2::text[]) AS k(key_id) ORDER BY key) AS ordered`,
    [EPISODE_LOCK_CLASS, keyIds],
  );
  const { rows } = await tx.query<Pick<EpisodeEventRow, 'keyId' | 'data'>>(
    `SELECT e.key_id AS "keyId", e.data
       FROM unnest($1::text[], $2::text[]) AS k(tenant, key_id)
       JOIN LATERAL (
         SELECT max(episode) AS episode FROM episode_events m WHERE m.tenant = k.tenant AND m.key_id = k.key_id
       ) AS latest ON true
       JOIN episode_events e ON e.tenant = k.tenant AND e.key_id = k.key_id AND e.episode = latest.episode
      ORDER BY e.seq`,
    [pairs.map((k) => k.tenant), pairs.map((k) => k.keyId)],
  );
  for (const row of rows) {
    const list = byKey.get(row.keyId) ?? [];
    list.push(row.data);
    byKey.set(row.keyId, list);
  }
  return byKey;
}
