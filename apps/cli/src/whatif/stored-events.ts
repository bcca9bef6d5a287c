import { storedAgentEvent, type AgentEvent } from '@tokencircuit/contracts';
import type { SqlSession } from '@tokencircuit/storage';
import { quoteSchema } from '../replay/replay-database.js';

export interface StoredEventFilter {
  readonly tenant?: string;
  /** ISO timestamps on occurred_at: from inclusive, to exclusive. */
  readonly from?: string;
  readonly to?: string;
}

/** The WHERE clause of a filter after `seq > $1`, and its parameters from $2 on. */
function whereOf(filter: StoredEventFilter): { sql: string; params: unknown[] } {
  const parts: string[] = [];
  const params: unknown[] = [];
  const add = (clause: (n: number) => string, value: unknown) => {
    params.push(value);
    parts.push(clause(params.length + 1));
  };
  if (filter.tenant !== undefined) add((n) => `tenant = $${n}`, filter.tenant);
  if (filter.from !== undefined) add((n) => `occurred_at >= $${n}::timestamptz`, filter.from);
  if (filter.to !== undefined) add((n) => `occurred_at < $${n}::timestamptz`, filter.to);
  return { sql: parts.map((p) => ` AND ${p}`).join(''), params };
}

export async function countStoredEvents(live: SqlSession, schema: string, filter: StoredEventFilter): Promise<number> {
  const where = whereOf(filter);
  const { rows } = await live.query<{ n: string }>(
    `SELECT count(*)::text AS n FROM ${quoteSchema(schema)}.agent_events WHERE seq > $1::bigint${where.sql}`,
    ['0', ...where.params],
  );
  return Number(rows[0]!.n);
}

/**
 * The stored agent events in seq order (the order the live state folded them), a page at a time by
 * keyset, so memory stays flat whatever the table holds. The next page is already asked for while the
 * caller folds this one, so Postgres reads while the core computes. Rows are what the projector decoded
 * and stored (`storedAgentEvent` takes current-version rows as they are).
 */
export async function* storedEvents(
  live: SqlSession,
  schema: string,
  filter: StoredEventFilter,
  pageSize: number,
  signal: AbortSignal,
): AsyncGenerator<AgentEvent[]> {
  const where = whereOf(filter);
  const page = (after: string) =>
    live.query<{ position: string; cloud_event: unknown }>(
      `SELECT seq::text AS position, cloud_event FROM ${quoteSchema(schema)}.agent_events
        WHERE seq > $1::bigint${where.sql} ORDER BY seq LIMIT ${pageSize}`,
      [after, ...where.params],
    );
  let next = page('0');
  try {
    for (;;) {
      if (signal.aborted) throw new Error('what-if interrupted');
      const { rows } = await next;
      if (rows.length === 0) return;
      next = page(rows[rows.length - 1]!.position);
      yield rows.map((row) => storedAgentEvent(row.cloud_event));
    }
  } finally {
    // A caller that stops early (an error, Ctrl+C) leaves one page in flight: its outcome no longer matters.
    next.catch(() => undefined);
  }
}
