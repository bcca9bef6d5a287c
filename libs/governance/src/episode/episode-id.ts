import { uuidV5 } from '../artifact/intervention-id.js';

/** The namespace of episode and episode-event ids (fixed; changing it changes every id). */
export const EPISODE_ID_NAMESPACE = '0e6f1c55-93b2-4d0a-b7a4-6c1f2d9e8a31';

/** One id per (key, episode): the incident key a pager deduplicates on, short enough for any of them. */
export const episodeIdOf = (keyId: string, episode: number): string =>
  uuidV5(`${keyId}#${episode}`, EPISODE_ID_NAMESPACE);

/** One id per lifecycle step of an outbox transition: the same transition decided twice yields it again. */
export const episodeEventIdOf = (outboxId: string, transition: string, episode: number): string =>
  uuidV5(`${outboxId}/${transition}/${episode}`, EPISODE_ID_NAMESPACE);
