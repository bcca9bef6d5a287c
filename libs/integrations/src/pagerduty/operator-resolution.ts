import { LIMITS, truncateText, type OperatorResolution } from '@tokencircuit/contracts';
import { uuidV5 } from '@tokencircuit/governance';
import type { IncidentAction } from './incident-action.js';

/** What the tenant's own records say about the episode an incident names (read under its row-level security). */
export interface EpisodeRecord {
  readonly keyId: string;
  readonly episode: number;
  /** Lifecycle steps already recorded for this episode (episode_events.transition). */
  readonly transitions: readonly string[];
  /** The key's failure state now: its current episode and status. */
  readonly current: { readonly episode: number; readonly status: string } | null;
}

export type ResolutionDecision =
  | {
      readonly kind: 'resolve';
      readonly id: string;
      readonly data: OperatorResolution['data'] & { readonly resolution: 'acknowledged' | 'reset' };
    }
  | { readonly kind: 'ignored'; readonly reason: string };

/** Namespace of resolution ids made from PagerDuty deliveries (fixed; changing it changes every id). */
export const PAGERDUTY_RESOLUTION_NAMESPACE = '8d1f4b62-3c7e-4e95-a0d8-5b2c9f71e6a4';

/**
 * The operator resolution an incident action makes, if any. The id is a UUIDv5 of the tenant and PagerDuty's
 * event id, so a redelivered webhook is the same agent event and the projector counts it once. Nothing is done
 * for an episode that is over (resolved, or a newer episode of the key is open: resolving that one would close
 * an incident nobody looked at), nor for an answer already recorded — which is also what stops the echo of our
 * own acknowledge/resolve, sent to PagerDuty by the notifier, from coming back as a second resolution.
 */
export function resolutionFor(
  tenant: string,
  action: Extract<IncidentAction, { kind: 'act' }>,
  episode: EpisodeRecord | null,
): ResolutionDecision {
  // Absent and another tenant's look the same: the lookup ran under the signing tenant's RLS.
  if (episode === null) return { kind: 'ignored', reason: `no episode ${action.episodeId} of this tenant` };
  if (episode.transitions.includes('resolved')) {
    return { kind: 'ignored', reason: `episode ${action.episodeId} is already resolved` };
  }
  if (episode.current === null || episode.current.episode !== episode.episode) {
    return { kind: 'ignored', reason: `episode ${action.episodeId} is over: the key has a newer episode` };
  }
  if (episode.current.status === 'resolved') {
    return { kind: 'ignored', reason: `the key of episode ${action.episodeId} is already resolved` };
  }
  if (action.action === 'acknowledge' && episode.transitions.includes('acknowledged')) {
    return { kind: 'ignored', reason: `episode ${action.episodeId} is already acknowledged` };
  }
  return {
    kind: 'resolve',
    id: uuidV5(`pagerduty/${tenant}/${action.deliveryId}`, PAGERDUTY_RESOLUTION_NAMESPACE),
    data: {
      keyId: episode.keyId,
      // A resolved incident resets the key as the dashboard's "resolve" does: agents may try again.
      resolution: action.action === 'acknowledge' ? 'acknowledged' : 'reset',
      by: action.by,
      reason: truncateText(action.reason, LIMITS.errorTextChars),
      unsafeOverride: false,
    },
  };
}
