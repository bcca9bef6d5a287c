import type pg from 'pg';
import type { AgentEventInput, EpisodeEventData } from '@tokencircuit/contracts';
import {
  createGovernance,
  episodeSteps,
  evolveEpisode,
  type EpisodeRecord,
  type TokenCircuitConfig,
} from '@tokencircuit/governance';
import { appendEpisodeEvents, type SqlSession } from '@tokencircuit/storage';
import { seedFromEvents } from './seed.js';

/**
 * seedFromEvents plus the episode lifecycle steps the decision service would have recorded for the same
 * transitions (the core's episodeSteps, in outbox order), written to episode_events as the writer.
 */
export async function seedWithEpisodes(pool: pg.Pool, inputs: readonly AgentEventInput[], policy: TokenCircuitConfig) {
  const seeded = await seedFromEvents(pool, inputs, policy);
  const governance = createGovernance(policy);
  const replay = governance.replay(seeded.events);
  const records = new Map<string, EpisodeRecord | null>();
  const steps: EpisodeEventData[] = [];
  for (const entry of replay.outbox) {
    const intervention = governance.intervention(entry, entry.snapshot.updatedAt);
    const record = records.get(entry.keyId) ?? null;
    const made = episodeSteps(record, entry, intervention, policy);
    records.set(entry.keyId, made.reduce(evolveEpisode, record));
    steps.push(...made);
  }
  const writer: SqlSession = { query: (text, params) => pool.query(text, params as unknown[]) as never };
  await appendEpisodeEvents(writer, steps);
  return { ...seeded, steps };
}
