import type {
  DecisionLevel,
  EpisodeActor,
  EpisodeEventData,
  EpisodeTransition,
  InterventionData,
} from '@tokencircuit/contracts';
import type { TokenCircuitConfig } from '../config/config.js';
import { decide } from '../decide/decide.js';
import type { FailureState } from '../model.js';
import type { OutboxEntry } from '../state/outbox-entry.js';
import { isAcknowledgementOnly } from './acknowledgement.js';
import { episodeEventIdOf, episodeIdOf } from './episode-id.js';
import { louder, type EpisodeRecord } from './episode-record.js';

/**
 * The lifecycle steps one decided outbox transition makes (decide, in the decider's sense): given the
 * key's episode record and the transition's snapshot with its intervention (null when none was
 * issued), which of triggered / escalated / acknowledged / resolved happened. Snapshots older than the
 * record (a late row from another relay instance) make none, so each step happens once per episode.
 */
export function episodeSteps(
  record: EpisodeRecord | null,
  entry: OutboxEntry,
  intervention: InterventionData | null,
  config: TokenCircuitConfig,
): EpisodeEventData[] {
  const s = entry.snapshot;
  if (
    record !== null &&
    (s.episode < record.episode || (s.episode === record.episode && s.version <= record.stateVersion))
  )
    return [];
  const steps: EpisodeEventData[] = [];
  const make = (transition: EpisodeTransition, fields: StepFields): EpisodeEventData =>
    stepOf(entry, transition, fields);
  let current = record !== null && record.episode === s.episode ? record : null;
  if (record !== null && record.episode < s.episode && record.level !== null && !record.resolved) {
    // The earlier episode's resolution was not seen before this one opened (only a resolution opens a
    // new episode): close its incident rather than leave it open for ever.
    steps.push(
      make('resolved', {
        episode: record.episode,
        openedAt: record.openedAt,
        level: record.level,
        summary: 'A new episode of this key opened: the earlier one was resolved.',
        actor: { kind: 'superseded', by: null, reason: null },
      }),
    );
  }
  const summary = (): string => intervention?.artifact.safety_justification ?? decide(s, config).safetyJustification;
  if (s.status === 'resolved') {
    if (current?.level && !current.resolved) {
      steps.push(
        make('resolved', { level: current.level, summary: summary(), actor: resolverOf(s), artifact: intervention }),
      );
    }
    return steps;
  }
  if (intervention !== null) {
    if (current === null || current.level === null) {
      steps.push(make('triggered', { level: intervention.level, summary: summary(), artifact: intervention }));
      current = {
        episode: s.episode,
        level: intervention.level,
        acknowledged: false,
        resolved: false,
        stateVersion: s.version,
        openedAt: s.openedAt,
      };
    } else if (louder(intervention.level, current.level)) {
      steps.push(
        make('escalated', {
          level: intervention.level,
          previousLevel: current.level,
          summary: summary(),
          artifact: intervention,
        }),
      );
    }
  }
  if (isAcknowledgementOnly(s) && current?.level && !current.acknowledged) {
    const op = s.operator!;
    steps.push(
      make('acknowledged', {
        level: current.level,
        summary: summary(),
        actor: { kind: 'operator', by: op.by, reason: op.reason },
      }),
    );
  }
  return steps;
}

interface StepFields {
  readonly level: DecisionLevel;
  readonly summary: string;
  readonly previousLevel?: DecisionLevel;
  readonly actor?: EpisodeActor;
  readonly artifact?: InterventionData | null;
  /** Another episode than the snapshot's (a superseded one). */
  readonly episode?: number;
  readonly openedAt?: string;
}

function stepOf(entry: OutboxEntry, transition: EpisodeTransition, f: StepFields): EpisodeEventData {
  const s = entry.snapshot;
  const episode = f.episode ?? s.episode;
  return {
    eventId: episodeEventIdOf(entry.id, transition, episode),
    transition,
    episodeId: episodeIdOf(s.keyId, episode),
    episode,
    tenant: s.key.tenant,
    keyId: s.keyId,
    scope: s.key.scope,
    run: s.key.run ?? s.lastCall.run,
    agent: s.lastCall.agent,
    principal: s.key.principal,
    tool: s.key.equivalenceKey.tool_name,
    failureClass: s.failureClass,
    level: f.level,
    previousLevel: f.previousLevel ?? null,
    interventionId:
      transition === 'triggered' || transition === 'escalated' ? (f.artifact?.interventionId ?? null) : null,
    summary: f.summary,
    actor: f.actor ?? null,
    artifact: f.artifact?.artifact ?? null,
    stateVersion: s.version,
    openedAt: f.openedAt ?? s.openedAt,
    occurredAt: s.updatedAt,
  };
}

/** Who closed a resolved episode: the operator whose resolution is the latest cause, a verifier, or a success. */
function resolverOf(s: FailureState): EpisodeActor {
  const op = s.operator;
  if (op !== null && op.eventId === s.causingEventIds[s.causingEventIds.length - 1]) {
    return { kind: 'operator', by: op.by, reason: `${op.resolution}: ${op.reason}` };
  }
  if (s.verifierStatus === 'passed' && s.finding !== null) {
    return { kind: 'verifier', by: s.verifierRequired, reason: s.finding };
  }
  return { kind: 'success', by: s.lastCall.agent, reason: null };
}
