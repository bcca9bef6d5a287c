import { storedAgentEvent, type AgentEvent } from '@tokencircuit/contracts';
import { readStoredEventPage, type SqlSession, type StoredEventFilter } from '@tokencircuit/storage';

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
  const page = (after: string) => readStoredEventPage(live, { schema, after, limit: pageSize, filter });
  let next = page('0');
  try {
    for (;;) {
      if (signal.aborted) throw new Error('what-if interrupted');
      const rows = await next;
      if (rows.length === 0) return;
      next = page(rows[rows.length - 1]!.position);
      yield rows.map((row) => storedAgentEvent(row.cloudEvent));
    }
  } finally {
    // A caller that stops early (an error, Ctrl+C) leaves one page in flight: its outcome no longer matters.
    next.catch(() => undefined);
  }
}
