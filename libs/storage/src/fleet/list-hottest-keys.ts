import type { SqlSession } from '../sql-database.js';
import type { InterventionRow } from '../tables/interventions.js';
import type { TimeWindow } from './time-window.js';

/** A key ranked by how many interventions it drew in a window. */
export type HotKeyRow = Pick<
  InterventionRow,
  'keyId' | 'toolName' | 'principal' | 'resourceClass' | 'resourceId' | 'failureClass' | 'level'
> & {
  readonly interventions: number;
  readonly lastAt: Date | string;
};

/** The fleet view lists this many hottest keys. */
export const HOTTEST_KEYS = 10;

// level: the key's latest in the window.
const HOTTEST_SQL = `
SELECT key_id AS "keyId", tool_name AS "toolName", principal, resource_class AS "resourceClass",
       resource_id AS "resourceId", failure_class AS "failureClass",
       (array_agg(level ORDER BY seq DESC))[1] AS level, count(*)::int AS interventions, max(issued_at) AS "lastAt"
  FROM interventions
 WHERE issued_at >= $1::timestamptz AND issued_at < $2::timestamptz
 GROUP BY key_id, tool_name, principal, resource_class, resource_id, failure_class
 ORDER BY interventions DESC, "lastAt" DESC, key_id
 LIMIT ${HOTTEST_KEYS}`;

/** The keys with the most interventions issued in the window, most first; under withTenant. */
export async function listHottestKeys(session: SqlSession, window: TimeWindow): Promise<HotKeyRow[]> {
  const { rows } = await session.query<HotKeyRow>(HOTTEST_SQL, [window.from.toISOString(), window.to.toISOString()]);
  return rows;
}
