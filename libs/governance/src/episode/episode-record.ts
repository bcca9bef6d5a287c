import type { DecisionLevel, EpisodeEventData } from '@tokencircuit/contracts';

/** What the lifecycle remembers of a key's latest episode: folded from its recorded episode events. */
export interface EpisodeRecord {
  readonly episode: number;
  /** The loudest level published for it; null = nothing triggered yet. */
  readonly level: DecisionLevel | null;
  readonly acknowledged: boolean;
  readonly resolved: boolean;
  /** The state version of the newest recorded step: older snapshots arriving late change nothing. */
  readonly stateVersion: number;
  readonly openedAt: string;
}

const LOUDNESS: Readonly<Record<DecisionLevel, number>> = { advise: 0, block: 1, page: 2 };

/** Whether `a` is a louder level than `b` (advise < block < page). */
export const louder = (a: DecisionLevel, b: DecisionLevel): boolean => LOUDNESS[a] > LOUDNESS[b];

/** evolve for the lifecycle: a later episode starts afresh, an older one's steps change nothing. */
export function evolveEpisode(record: EpisodeRecord | null, event: EpisodeEventData): EpisodeRecord | null {
  if (record !== null && event.episode < record.episode) return record;
  const base: EpisodeRecord =
    record === null || event.episode > record.episode
      ? {
          episode: event.episode,
          level: null,
          acknowledged: false,
          resolved: false,
          stateVersion: 0,
          openedAt: event.openedAt,
        }
      : record;
  const stateVersion = Math.max(base.stateVersion, event.stateVersion);
  switch (event.transition) {
    case 'triggered':
    case 'escalated':
      return { ...base, level: event.level, stateVersion };
    case 'acknowledged':
      return { ...base, acknowledged: true, stateVersion };
    case 'resolved':
      return { ...base, resolved: true, stateVersion };
    default: {
      const exhaustive: never = event.transition;
      return exhaustive;
    }
  }
}

/** The record the recorded steps of a key fold to (in the order they were recorded). */
export const foldEpisode = (events: readonly EpisodeEventData[]): EpisodeRecord | null =>
  events.reduce<EpisodeRecord | null>(evolveEpisode, null);
