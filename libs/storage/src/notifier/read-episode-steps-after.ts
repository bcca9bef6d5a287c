import type { SqlSession } from '../sql-database.js';
import type { EpisodeEventRow } from '../tables/episode-events.js';

/** A recorded lifecycle step and its seq (text: a bigint), the position a reader moves its checkpoint to. */
export type PositionedEpisodeStep = Pick<EpisodeEventRow, 'data'> & { readonly seq: string };

/** Up to `limit` recorded lifecycle steps after `position`, in seq order (every tenant the session sees). */
export async function readEpisodeStepsAfter(
  db: SqlSession,
  position: string,
  limit: number,
): Promise<PositionedEpisodeStep[]> {
  const { rows } = await db.query<PositionedEpisodeStep>(
    'SELECT seq::text, data FROM episode_events WHERE seq > $1::bigint ORDER BY seq LIMIT $2',
    [position, limit],
  );
  return rows;
}
