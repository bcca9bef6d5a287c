import type { SqlSession } from '../sql-database.js';
import type { ChainHead } from './audit-anchor.js';
import { advanceEventsHead, NO_EVENTS, type DigestedEvent, type EventsHead } from './events-digest.js';

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

// cloud_event as text: the json column keeps the text it was given, which is what the digest covers.
const EVENT_COLUMNS = `seq::text AS seq, id, tenant, run, agent, type,
  to_char(occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS occurred_at, cloud_event::text AS cloud_event`;

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

/** A tenant's events head recomputed from the table through `through` (what verify compares with an anchor). */
export async function tenantEventsHead(
  session: SqlSession,
  tenant: string,
  through: number,
  pageSize = 1000,
): Promise<EventsHead> {
  let head: EventsHead = NO_EVENTS;
  for (;;) {
    const page = await readDigestedEvents(session, { after: head.through, through, tenant, limit: pageSize });
    const last = page.at(-1);
    if (!last || page.length < pageSize) return advanceEventsHead(head, page, through);
    head = advanceEventsHead(head, page, last.seq);
  }
}

/** The tenant's intervention with this seq (null when there is none). */
export async function chainRowAt(session: SqlSession, tenant: string, seq: number): Promise<ChainHead | null> {
  const { rows } = await session.query<{ seq: string; hash: string }>(
    'SELECT seq::text AS seq, hash FROM interventions WHERE tenant = $1 AND seq = $2::bigint',
    [tenant, seq],
  );
  return rows[0] ? { seq: Number(rows[0].seq), hash: rows[0].hash } : null;
}

/** The newest intervention of each tenant (absent from the map when the tenant has none). */
export async function chainHeads(session: SqlSession, tenants: readonly string[]): Promise<Map<string, ChainHead>> {
  if (tenants.length === 0) return new Map();
  const { rows } = await session.query<{ tenant: string; seq: string | null; hash: string | null }>(
    `SELECT t.tenant, head.seq::text AS seq, head.hash
       FROM unnest($1::text[]) AS t(tenant)
       JOIN LATERAL (SELECT seq, hash FROM interventions i WHERE i.tenant = t.tenant ORDER BY seq DESC LIMIT 1) AS head
         ON true`,
    [tenants],
  );
  return new Map(rows.map((r) => [r.tenant, { seq: Number(r.seq), hash: r.hash! }]));
}

/**
 * The agent_events seq at and below which every event is committed (migration 0030's function; it briefly
 * waits for running inserts). Null when the lock was not granted in time: try again later.
 */
export async function agentEventsHorizon(session: SqlSession): Promise<number | null> {
  try {
    const { rows } = await session.query<{ horizon: string }>(
      'SELECT tokencircuit_agent_events_horizon()::text AS horizon',
    );
    return Number(rows[0]!.horizon);
  } catch (error) {
    if ((error as { code?: string }).code === '55P03') return null; // lock_not_available
    throw error;
  }
}
