import type pg from 'pg';

/** One agent event the projector stored, with the call facts the MCP specs look at. */
export interface StoredEvent {
  readonly id: string;
  readonly type: string;
  readonly agent: string | null;
  readonly run: string | null;
  readonly tool: string | null;
  readonly callId: string | null;
  readonly status: string | null;
  readonly data: Record<string, unknown>;
}

/** The agent events of `agent` the projector applied, in order of arrival. */
export async function storedEvents(pool: pg.Pool, agent: string): Promise<StoredEvent[]> {
  const { rows } = await pool.query<StoredEvent>(
    `SELECT id, type, agent, run,
            coalesce(tokencircuit_cloud_event(agent_events)->'data'->'call'->>'tool', tokencircuit_cloud_event(agent_events)->'data'->>'tool') AS tool,
            coalesce(tokencircuit_cloud_event(agent_events)->'data'->'call'->>'callId', tokencircuit_cloud_event(agent_events)->'data'->>'callId') AS "callId",
            tokencircuit_cloud_event(agent_events)->'data'->>'status' AS status,
            (tokencircuit_cloud_event(agent_events)->'data')::jsonb AS data
       FROM agent_events WHERE agent = $1 ORDER BY seq`,
    [agent],
  );
  return rows;
}

/**
 * Every call of `agent` the projector knows: each call id with one tool_call.requested and, once it ended,
 * one tool_call.outcome — never two of either (a double publish under a new id would show here, the
 * primary key catches a re-send of the same id).
 */
export function callsOf(events: readonly StoredEvent[]): Map<string, { requested: number; outcomes: number }> {
  const calls = new Map<string, { requested: number; outcomes: number }>();
  for (const event of events) {
    if (event.callId === null) continue;
    const entry = calls.get(event.callId) ?? { requested: 0, outcomes: 0 };
    if (event.type === 'tool_call.requested') entry.requested++;
    if (event.type === 'tool_call.outcome') entry.outcomes++;
    calls.set(event.callId, entry);
  }
  return calls;
}

/** Interventions stored for a tool (by the name the gateway reports, SERVER__TOOL or the upstream's). */
export async function storedInterventions(
  pool: pg.Pool,
  where: { agent?: string; principal?: string; tool?: string },
): Promise<{ level: string; failure_class: string; next_action: string; key_id: string; tool_name: string }[]> {
  const { rows } = await pool.query(
    `SELECT level, failure_class, next_action, key_id, tool_name FROM interventions
      WHERE ($1::text IS NULL OR agent = $1) AND ($2::text IS NULL OR principal = $2) AND ($3::text IS NULL OR tool_name = $3)
      ORDER BY seq`,
    [where.agent ?? null, where.principal ?? null, where.tool ?? null],
  );
  return rows as { level: string; failure_class: string; next_action: string; key_id: string; tool_name: string }[];
}
