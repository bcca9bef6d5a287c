import type { EpisodeEventData, InterventionData } from '@tokencircuit/contracts';
import {
  episodeSteps,
  evolveEpisode,
  foldEpisode,
  type EpisodeRecord,
  type OutboxEntry,
  type TokenCircuitConfig,
} from '@tokencircuit/governance';
import type { RecordedEpisodeStep } from '@tokencircuit/storage';

/**
 * The lifecycle steps a round's decided transitions make, given each key's recorded steps of its latest
 * episode (read under the key's lock, openAuditBatch): folded, and the pure core says which steps the new
 * transitions make. A retried round recomputes the same steps with the same ids.
 */
export function episodeStepsOfRound(
  recorded: ReadonlyMap<string, readonly RecordedEpisodeStep[]>,
  decided: readonly { entry: OutboxEntry; intervention: InterventionData | null }[],
  policy: TokenCircuitConfig,
): EpisodeEventData[] {
  const records = new Map<string, EpisodeRecord | null>();
  for (const [keyId, events] of recorded) records.set(keyId, foldEpisode(events));
  // Claim order is outbox order, which for one key need not be version order (ids compare as text).
  const ordered = [...decided].sort((a, b) =>
    a.entry.keyId === b.entry.keyId
      ? a.entry.stateVersion - b.entry.stateVersion
      : a.entry.keyId < b.entry.keyId
        ? -1
        : 1,
  );
  const steps: EpisodeEventData[] = [];
  for (const { entry, intervention } of ordered) {
    const record = records.get(entry.keyId) ?? null;
    const made = episodeSteps(record, entry, intervention, policy);
    if (made.length === 0) continue;
    records.set(entry.keyId, made.reduce(evolveEpisode, record));
    steps.push(...made);
  }
  return steps;
}
