import type { EpisodeEventData } from '@tokencircuit/contracts';

/** A lifecycle step as the decision relay records it; only the fields a spec varies are parameters. */
export function episodeStep(
  over: Partial<Pick<EpisodeEventData, 'eventId' | 'episodeId' | 'tenant' | 'keyId' | 'transition' | 'level'>> & {
    readonly eventId: string;
  },
): EpisodeEventData {
  const episodeId = over.episodeId ?? 'episode-1';
  return {
    eventId: over.eventId,
    transition: over.transition ?? 'triggered',
    episodeId,
    episode: 1,
    tenant: over.tenant ?? 'acme',
    keyId: over.keyId ?? `key-of-${episodeId}`,
    scope: 'fleet',
    run: null,
    agent: null,
    principal: 'svc-billing',
    tool: 'sql.execute',
    failureClass: 'permission',
    level: over.level ?? 'page',
    previousLevel: null,
    interventionId: null,
    summary: 'permission failures never heal by retrying',
    actor: null,
    artifact: null,
    stateVersion: 1,
    openedAt: '2026-12-01T20:00:00.000Z',
    occurredAt: '2026-12-01T20:00:00.000Z',
  };
}
