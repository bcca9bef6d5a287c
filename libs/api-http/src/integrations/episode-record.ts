import type { EpisodeRecord } from '@tokencircuit/integrations';
import { readEpisodeSteps, readKeyEpisode, type SqlSession } from '@tokencircuit/storage';

/**
 * The episode an incident key names, as the tenant's own rows tell it: its key, its recorded steps, and the
 * key's state now. Run under the tenant's row-level security (TenantScope.read), so another tenant's episode is
 * simply not there. Null when the episode has no recorded step of this tenant.
 */
export async function episodeRecord(session: SqlSession, episodeId: string): Promise<EpisodeRecord | null> {
  const steps = await readEpisodeSteps(session, episodeId);
  if (!steps) return null;
  return { ...steps, current: await readKeyEpisode(session, steps.keyId) };
}
