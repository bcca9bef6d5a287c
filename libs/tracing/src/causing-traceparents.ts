import type { SqlSession } from '@tokencircuit/storage';

/**
 * The W3C traceparent each of these agent events carried (agent_events keeps it in the stored CloudEvent),
 * keyed `tenant/id`; events without one are absent.
 */
export async function causingTraceparents(db: SqlSession, ids: readonly string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const { rows } = await db.query<{ tenant: string; id: string; traceparent: string }>(
    `SELECT tenant, id, cloud_event->>'traceparent' AS traceparent FROM agent_events
      WHERE id = ANY($1::text[]) AND cloud_event->>'traceparent' IS NOT NULL`,
    [[...new Set(ids)]],
  );
  return new Map(rows.map((r) => [`${r.tenant}/${r.id}`, r.traceparent]));
}

/** The latest of a decision's causing events that has a trace context: the call that tipped it. */
export function latestTraceparent(
  byEvent: ReadonlyMap<string, string>,
  tenant: string,
  causingEventIds: readonly string[],
): string | null {
  for (let i = causingEventIds.length - 1; i >= 0; i--) {
    const traceparent = byEvent.get(`${tenant}/${causingEventIds[i]}`);
    if (traceparent) return traceparent;
  }
  return null;
}
