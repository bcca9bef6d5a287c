import type { SqlSession } from '../sql-database.js';
import type { DigestedEvent } from './events-digest.js';

interface EventRow {
  seq: string;
  id: string;
  tenant: string;
  run: string | null;
  agent: string | null;
  type: string;
  occurred_at: string;
  cloud_event: string;
}

// The stored CloudEvent as text: the text the projector was given, which is what the digest covers (a row cut
// after its envelope rebuilds it exactly, migration 0048).
const EVENT_COLUMNS = `seq::text AS seq, id, tenant, run, agent, type,
  to_char(occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS occurred_at,
  tokencircuit_cloud_event(agent_events)::text AS cloud_event`;

const toDigested = (r: EventRow): DigestedEvent => ({
  seq: Number(r.seq),
  id: r.id,
  tenant: r.tenant,
  run: r.run,
  agent: r.agent,
  type: r.type,
  occurredAt: r.occurred_at,
  cloudEvent: r.cloud_event,
});

/** agent_events with after < seq <= through (of one tenant, or of every tenant the session sees), in seq order. */
export async function readDigestedEvents(
  session: SqlSession,
  range: { readonly after: number; readonly through: number; readonly tenant?: string; readonly limit: number },
): Promise<DigestedEvent[]> {
  const { rows } = await session.query<EventRow>(
    // ORDER BY names the column: a bare "seq" would sort by the text alias, putting 9 after 12.
    `SELECT ${EVENT_COLUMNS} FROM agent_events
      WHERE seq > $1::bigint AND seq <= $2::bigint AND ($3::text IS NULL OR tenant = $3::text)
      ORDER BY agent_events.seq LIMIT $4`,
    [range.after, range.through, range.tenant ?? null, range.limit],
  );
  return rows.map(toDigested);
}
