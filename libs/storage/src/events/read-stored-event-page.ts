import { quoteSchema } from '../replay/quote-schema.js';
import type { SqlSession } from '../sql-database.js';
import { STORED_EVENT_FILTER_SQL, storedEventFilterParams, type StoredEventFilter } from './stored-event-filter.js';

/** One stored event: its seq (bigint as text) and the CloudEvent as the projector stored it. */
export interface StoredEventRow {
  readonly position: string;
  readonly cloudEvent: unknown;
}

/**
 * Up to `limit` agent_events of `schema` after seq `after`, in seq order (the order the live state folded
 * them): one keyset page of a whole-table read (replay, what-if), so memory stays flat whatever the table holds.
 */
export async function readStoredEventPage(
  session: SqlSession,
  page: {
    readonly schema: string;
    readonly after: string;
    readonly limit: number;
    readonly filter?: StoredEventFilter;
  },
): Promise<StoredEventRow[]> {
  // seq is bigint; its text form gets its own name, since ORDER BY an alias "seq" would sort text (10 before 9).
  const { rows } = await session.query<{ position: string; cloud_event: unknown }>(
    // The function of the live schema, named with it: the session's search_path may point at replay's own.
    `SELECT seq::text AS position, ${quoteSchema(page.schema)}.tokencircuit_cloud_event(e) AS cloud_event
       FROM ${quoteSchema(page.schema)}.agent_events e
      WHERE seq > $1::bigint AND ${STORED_EVENT_FILTER_SQL} ORDER BY seq LIMIT $5`,
    [page.after, ...storedEventFilterParams(page.filter ?? {}), page.limit],
  );
  return rows.map((r) => ({ position: r.position, cloudEvent: r.cloud_event }));
}
