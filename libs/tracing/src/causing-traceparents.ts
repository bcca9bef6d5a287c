import type { SqlSession } from '@tokencircuit/storage';

/**
 * The W3C traceparent each of these agent events carried (agent_events keeps it in the stored CloudEvent),
 * keyed `tenant/id`; events without one are absent. Looked up by (tenant, id), the primary key's prefix: by id
 * alone Postgres would scan every stored event once per decision round.
 */
export async function causingTraceparents(
  db: SqlSession,
  events: readonly { readonly tenant: string; readonly id: string }[],
): Promise<Map<string, string>> {
  const unique = [...new Map(events.map((e) => [`${e.tenant}/${e.id}`, e])).values()];
  if (unique.length === 0) return new Map();
  const { rows } = await db.query<{ tenant: string; id: string; traceparent: string }>(
    `SELECT tenant, id, traceparent FROM (
       SELECT e.tenant, e.id, tokencircuit_cloud_event(e)->>'traceparent' AS traceparent
         FROM unnest($1::text[], $2::text[]) AS wanted(tenant, id)
         JOIN agent_events e ON e.tenant = wanted.tenant AND e.id = wanted.id
     ) found WHERE traceparent IS NOT NULL`,
    [unique.map((e) => e.tenant), unique.map((e) => e.id)],
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
