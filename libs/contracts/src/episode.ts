import { z } from 'zod';
import { CE_CONTENT_TYPE_DATA, CE_TYPE_PREFIX, CLOUDEVENTS_SPEC_VERSION, type CloudEvent } from './cloud-event.js';
import { DecisionLevelSchema, InterventionClassSchema } from './failure-class.js';
import { DiagnosticArtifactSchema, KeyScopeSchema } from './intervention.js';

/**
 * What happens to one episode of a key (from its first failure to its resolution: the natural incident):
 * triggered (its first intervention), escalated (a louder level than any before), acknowledged (an
 * operator took it), resolved (an operator, a passing verifier or a success closed it).
 */
export const EPISODE_TRANSITIONS = ['triggered', 'escalated', 'acknowledged', 'resolved'] as const;
export const EpisodeTransitionSchema = z.enum(EPISODE_TRANSITIONS);
export type EpisodeTransition = z.infer<typeof EpisodeTransitionSchema>;

/** Who moved the episode: an operator (acknowledged, resolved), a verifier or a success (resolved). */
export const EpisodeActorSchema = z.object({
  kind: z.enum(['operator', 'verifier', 'success', 'superseded']),
  /** The operator's name, the verifier kind, or null. */
  by: z.string().nullable(),
  reason: z.string().nullable(),
});
export type EpisodeActor = z.infer<typeof EpisodeActorSchema>;

/** Published to tokencircuit.episodes.v1: one lifecycle step of a key's episode, at least once, stable id. */
export const EpisodeEventDataSchema = z.object({
  /** Stable under replay (UUIDv5 of the outbox transition and the step): subscribers dedupe on it. */
  eventId: z.string(),
  transition: EpisodeTransitionSchema,
  /** Stable id of the episode (UUIDv5 of key id and episode number): the incident's dedup key. */
  episodeId: z.string(),
  episode: z.number().int().positive(),
  tenant: z.string(),
  keyId: z.string(),
  scope: KeyScopeSchema,
  run: z.string().nullable(),
  agent: z.string().nullable(),
  principal: z.string().nullable(),
  tool: z.string(),
  failureClass: InterventionClassSchema,
  /** The loudest level the episode reached so far (what routes match on, also for ack and resolve). */
  level: DecisionLevelSchema,
  /** escalated: the level before; otherwise null. */
  previousLevel: DecisionLevelSchema.nullable(),
  /** The intervention that triggered or escalated the episode; null for acknowledged and resolved. */
  interventionId: z.string().nullable(),
  /** The decision's plain-words justification at this step. */
  summary: z.string(),
  actor: EpisodeActorSchema.nullable(),
  /** The artifact at this step (triggered and escalated carry it; acknowledged and resolved may). */
  artifact: DiagnosticArtifactSchema.nullable(),
  stateVersion: z.number().int().nonnegative(),
  openedAt: z.iso.datetime({ offset: true }),
  occurredAt: z.iso.datetime({ offset: true }),
});
export type EpisodeEventData = z.infer<typeof EpisodeEventDataSchema>;

export const EPISODE_CE_TYPES: Readonly<Record<EpisodeTransition, string>> = {
  triggered: `${CE_TYPE_PREFIX}episode.triggered.v1`,
  escalated: `${CE_TYPE_PREFIX}episode.escalated.v1`,
  acknowledged: `${CE_TYPE_PREFIX}episode.acknowledged.v1`,
  resolved: `${CE_TYPE_PREFIX}episode.resolved.v1`,
};

export function episodeToCloudEvent(data: EpisodeEventData): CloudEvent<EpisodeEventData> {
  return {
    specversion: CLOUDEVENTS_SPEC_VERSION,
    id: data.eventId,
    source: `/tenants/${data.tenant}/tokencircuit/decision`,
    type: EPISODE_CE_TYPES[data.transition],
    time: data.occurredAt,
    subject: data.episodeId,
    datacontenttype: CE_CONTENT_TYPE_DATA,
    tenantid: data.tenant,
    ...(data.run ? { runid: data.run } : {}),
    data,
  };
}

/** The episode event a CloudEvent carries; throws a message naming the field otherwise. */
export function cloudEventToEpisode(ce: CloudEvent): EpisodeEventData {
  const known = Object.values(EPISODE_CE_TYPES);
  if (!known.includes(ce.type)) throw new Error(`type: expected one of ${known.join(', ')}, got "${ce.type}"`);
  const parsed = EpisodeEventDataSchema.safeParse(ce.data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Error(`data.${issue.path.join('.')}: ${issue.message}`);
  }
  if (EPISODE_CE_TYPES[parsed.data.transition] !== ce.type) {
    throw new Error(`data.transition: "${parsed.data.transition}" does not match type "${ce.type}"`);
  }
  return parsed.data;
}
