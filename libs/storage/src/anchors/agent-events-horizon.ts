import type { SqlSession } from '../sql-database.js';

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
