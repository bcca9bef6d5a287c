import type { EpisodeRecord } from '@tokencircuit/integrations';
import type { SqlSession } from '@tokencircuit/storage';

/**
 * The episode an incident key names, as the tenant's own rows tell it: its key, its recorded steps, and the
 * key's state now. Run under the tenant's row-level security (TenantScope.read), so another tenant's episode is
 * simply not there. Null when the episode has no recorded step of this tenant.
 */
export async function episodeRecord(session: SqlSession, episodeId: string): Promise<EpisodeRecord | null> {
  const { rows } = await session.query<{ key_id: string; episode: number; transitions: string[] }>(
    `SELECT key_id, episode, array_agg(transition ORDER BY seq) AS transitions
       FROM episode_events WHERE episode_id = $1 GROUP BY key_id, episode`,
    [episodeId],
  );
  // One episode id is one (key, episode): it is a UUIDv5 of both (ADR 0005).
  const step = rows[0];
  if (!step) return null;
  const state = await session.query<{ episode: number | null; status: string }>(
    `SELECT (state->>'episode')::int AS episode, status FROM failure_state WHERE key_id = $1`,
    [step.key_id],
  );
  const current = state.rows[0];
  return {
    keyId: step.key_id,
    episode: Number(step.episode),
    transitions: step.transitions,
    current: current ? { episode: Number(current.episode ?? 1), status: current.status } : null,
  };
}
