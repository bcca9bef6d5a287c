import type { SqlSession } from '../sql-database.js';
import type { AgentEventRow } from '../tables/agent-events.js';

/** One event of a run as a timeline shows it. */
export type RunEventRow = Pick<AgentEventRow, 'id' | 'type' | 'agent'> & {
  readonly occurredAt: Date | string;
  /** The CloudEvent's data as ingested (already validated and redacted by the projector). */
  readonly data: unknown;
};

export interface RunEvents {
  /** The newest `limit` events of the run, oldest first. */
  readonly events: RunEventRow[];
  /** Whether older events were left out. */
  readonly truncated: boolean;
}

/** A run's newest events, in the order they occurred; under withTenant only the tenant's run is read. */
export async function readRunEvents(session: SqlSession, run: string, limit: number): Promise<RunEvents> {
  const { rows } = await session.query<RunEventRow>(
    `SELECT id, type, agent, occurred_at AS "occurredAt", data FROM (
       SELECT id, type, agent, occurred_at, seq, tokencircuit_cloud_event(agent_events)->'data' AS data
         FROM agent_events WHERE run = $1 ORDER BY occurred_at DESC, seq DESC LIMIT $2
     ) newest ORDER BY occurred_at, seq`,
    [run, limit + 1],
  );
  const truncated = rows.length > limit;
  return { events: truncated ? rows.slice(1) : rows, truncated };
}
