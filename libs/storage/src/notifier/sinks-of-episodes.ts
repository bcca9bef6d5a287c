import type { SqlSession } from '../sql-database.js';

/** The sinks that already carry each episode (where its acknowledgement and resolution must go too). */
export async function sinksOfEpisodes(tx: SqlSession, episodeIds: readonly string[]): Promise<Map<string, string[]>> {
  const result = new Map<string, string[]>();
  if (episodeIds.length === 0) return result;
  const { rows } = await tx.query<{ episode_id: string; sink: string }>(
    `SELECT DISTINCT episode_id, sink FROM notifier_deliveries WHERE episode_id = ANY($1::text[]) ORDER BY episode_id, sink`,
    [[...new Set(episodeIds)]],
  );
  for (const row of rows) result.set(row.episode_id, [...(result.get(row.episode_id) ?? []), row.sink]);
  return result;
}
