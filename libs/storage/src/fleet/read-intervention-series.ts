import type { SqlSession } from '../sql-database.js';
import type { InterventionRow } from '../tables/interventions.js';
import type { TimeWindow } from './time-window.js';

/** How many interventions of one level and class were issued in one bucket. */
export type SeriesRow = Pick<InterventionRow, 'level' | 'failureClass'> & {
  /** The bucket's start: `from` plus a whole number of buckets. */
  readonly bucket: Date | string;
  readonly count: number;
};

const SERIES_SQL = `
SELECT date_bin(make_interval(secs => $3), issued_at, $1::timestamptz) AS bucket, level,
       failure_class AS "failureClass", count(*)::int AS count
  FROM interventions
 WHERE issued_at >= $1::timestamptz AND issued_at < $2::timestamptz
 GROUP BY 1, 2, 3
 ORDER BY 1, 2, 3`;

/** Interventions issued in the window, counted per bucket of `bucketSeconds`, level and class; under withTenant. */
export async function readInterventionSeries(
  session: SqlSession,
  window: TimeWindow & { readonly bucketSeconds: number },
): Promise<SeriesRow[]> {
  const { rows } = await session.query<SeriesRow>(SERIES_SQL, [
    window.from.toISOString(),
    window.to.toISOString(),
    window.bucketSeconds,
  ]);
  return rows;
}
