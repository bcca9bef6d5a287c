import { quoteSchema } from '../replay/quote-schema.js';
import type { SqlSession } from '../sql-database.js';
import { STORED_EVENT_FILTER_SQL, storedEventFilterParams, type StoredEventFilter } from './stored-event-filter.js';

/** How many agent_events of `schema` the filter takes (what a replay or what-if run will read, for its progress). */
export async function countStoredEvents(
  session: SqlSession,
  schema: string,
  filter: StoredEventFilter = {},
): Promise<number> {
  const { rows } = await session.query<{ n: string }>(
    `SELECT count(*)::text AS n FROM ${quoteSchema(schema)}.agent_events
      WHERE seq > $1::bigint AND ${STORED_EVENT_FILTER_SQL}`,
    ['0', ...storedEventFilterParams(filter)],
  );
  return Number(rows[0]!.n);
}
