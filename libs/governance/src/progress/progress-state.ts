import type { AgentEvent, EquivalenceKey, ToolCall, ToolCallOutcome } from '@tokencircuit/contracts';
import type { TokenCircuitConfig } from '../config/config.js';
import { keyIdOf } from '../keys/key-id.js';
import type { FailureState, FailureStatus, StateKey } from '../model.js';
import { isReadCall } from '../state/judge-attempt.js';
import { appendBounded, BOUNDS } from '../support/bounded.js';
import { copyOf, transition, transitioned } from '../state/transition.js';
import { outcomeCallDigestOf } from './call-digest.js';
import type { ProgressMemory, ProgressOrigin } from './progress-memory.js';
import { noProgressOf, type NoProgressPolicy } from './progress-policy.js';
import { emptyTrack, observe, type ProgressTrack } from './progress-track.js';

export const NO_PROGRESS_REASON = 'no_progress';

/**
 * Whether an event is a fact the no_progress detectors count: a successful outcome with a result digest.
 * Without one (an older producer, a result that could not be digested) nobody can tell a repeat.
 */
export const isProgressFact = (event: AgentEvent, config: TokenCircuitConfig): event is ToolCallOutcome =>
  event.type === 'tool_call.outcome' &&
  event.data.status === 'succeeded' &&
  event.data.resultDigest !== null &&
  noProgressOf(config).enabled;

/** The run key a call's no_progress state lives in: its tool's run coordinates, class no_progress. */
export function progressKeyFor(tenant: string, call: ToolCall): StateKey {
  return freezeKey(keyFields(tenant, call));
}

/** The key's two flat objects, not yet frozen (a memory's origin: frozen when its key opens, see freezeKey). */
function keyFields(tenant: string, call: ToolCall): StateKey {
  const equivalenceKey: EquivalenceKey = {
    tool_name: call.tool,
    resource_class: call.resourceClass,
    auth_scope: call.authScope,
    error_class: 'no_progress',
    // A write repeated with the same result is the worse loop: its own key, its own thresholds.
    side_effect_boundary: !isReadCall(call),
  };
  return { scope: 'run', tenant, run: call.run, principal: call.principal, resourceId: null, equivalenceKey };
}

/** Two flat objects: freezing them by hand is the deep freeze. */
function freezeKey(key: StateKey): StateKey {
  Object.freeze(key.equivalenceKey);
  return Object.freeze(key);
}

export const progressKeyIdOf = (tenant: string, call: ToolCall): string => keyIdOf(progressKeyFor(tenant, call));

/** Whether a no_progress key at the call's run coordinates is the one its calls count in (same effect). */
export const isProgressKeyOf = (state: FailureState, call: ToolCall): boolean =>
  state.key.equivalenceKey.side_effect_boundary === !isReadCall(call);

const statusOf = (track: ProgressTrack): FailureStatus =>
  track.level === null ? 'resolved' : track.level === 'advise' ? 'open' : 'exhausted';

const isPoller = (policy: NoProgressPolicy, call: ToolCall): boolean =>
  isReadCall(call) && policy.polling.tools.includes(call.tool);

// An opened key's empty lists and its evidence, shared by every opened key (states are never mutated:
// a transition writes new arrays), so opening a key allocates only what differs from key to key.
const NOTHING: readonly never[] = Object.freeze([]);
const EVIDENCE: Readonly<Record<string, readonly string[]>> = Object.freeze({
  read: Object.freeze(['declared_effect:read']),
  write: Object.freeze(['declared_effect:write']),
  unknown: Object.freeze(['declared_effect:unknown']),
});
const evidenceOf = (effect: string): readonly string[] =>
  Object.hasOwn(EVIDENCE, effect) ? EVIDENCE[effect]! : [`declared_effect:${effect}`];

/**
 * A digested success where no no_progress key exists at the call's coordinates: the run's memory there
 * observes the call. While the detectors find nothing, only the memory changes (no state, no transition,
 * no outbox entry); at the first finding the key is opened, equal to the key the fold would have kept
 * since the run's first call here (same version, causing events, episode, times: the same artifact).
 * null: a call the memory has observed already (a redelivery), nothing changes.
 */
export function rememberProgress(
  event: ToolCallOutcome,
  memory: ProgressMemory | undefined,
  config: TokenCircuitConfig,
): { readonly memory: ProgressMemory } | { readonly opened: FailureState } | null {
  const { call, resultDigest } = event.data;
  const policy = noProgressOf(config);
  let track: ProgressTrack;
  if (memory === undefined) track = emptyTrack(isReadCall(call), isPoller(policy, call), policy);
  else {
    track = memory.track;
    for (const e of track.entries) if (e.callId === call.callId) return null;
  }
  const next = observe(
    track,
    { callId: call.callId, callDigest: outcomeCallDigestOf(event.data, policy), resultDigest },
    policy,
  );
  const origin = memory?.origin ?? originOf(event);
  const calls = (memory?.calls ?? 0) + 1;
  const causingEventIds =
    memory === undefined ? [event.id] : appendBounded(memory.causingEventIds, event.id, BOUNDS.causingEventIds);
  if (next.level === null) return { memory: { origin, calls, causingEventIds, track: next } };
  return { opened: openedProgress(origin, calls, causingEventIds, next, event) };
}

function originOf(event: ToolCallOutcome): ProgressOrigin {
  const call = event.data.call;
  return {
    // Not frozen here: most memories never open a key, and two Object.freeze calls cost a new memory
    // more than its ring. Nothing writes to it; openedProgress freezes it when it becomes a state's key.
    key: keyFields(event.tenant, call),
    sideEffectEvidence: evidenceOf(call.effect),
    intentId: call.intentId,
    at: event.time,
  };
}

/**
 * The key at its first finding, built in one literal: what opening it at the run's first call here and
 * one transition per later call gave (version = calls observed; a first finding after calls that found
 * nothing is the key's second episode, the first being the resolved stretch before it).
 */
function openedProgress(
  origin: ProgressOrigin,
  calls: number,
  causingEventIds: readonly string[],
  track: ProgressTrack,
  event: ToolCallOutcome,
): FailureState {
  const call = event.data.call;
  return {
    keyId: keyIdOf(origin.key),
    key: freezeKey(origin.key),
    failureClass: 'no_progress',
    budget: track.thresholds?.blockAt ?? 0,
    retryCount: track.repeats,
    status: statusOf(track),
    verifierRequired: null,
    verifierStatus: 'not_required',
    lastReceipts: NOTHING,
    classificationReason: reasonOf(track),
    sideEffectEvidence: origin.sideEffectEvidence,
    causingEventIds,
    version: calls,
    updatedAt: event.time,
    episode: calls > 1 ? 2 : 1,
    openedAt: event.time,
    seenCallIds: NOTHING,
    legitimateAttempts: 0,
    violations: 0,
    lastViolation: null,
    failures: 0,
    intentId: origin.intentId,
    argFingerprints: NOTHING,
    missingResourceIds: NOTHING,
    resolvedResourceId: null,
    finding: null,
    lastFailureAt: origin.at,
    serverDelay: null,
    lastCall: { agent: call.agent, run: call.run, callId: call.callId },
    operator: null,
    acknowledgedSituation: null,
    overrideGrants: 0,
    progress: track,
  };
}

const reasonOf = (track: ProgressTrack): string =>
  track.detector === null ? NO_PROGRESS_REASON : `${NO_PROGRESS_REASON}:${track.detector}`;

/**
 * A no_progress key after an event: a successful call is observed (a call id seen already, e.g. a
 * redelivery, is not); an operator's reset forgets the loop and an acknowledgement stops the paging;
 * everything else leaves it as it is.
 */
export function evolveProgress(state: FailureState, event: AgentEvent, config: TokenCircuitConfig): FailureState {
  if (event.type === 'tool_call.outcome')
    return isProgressFact(event, config) ? onProgressOutcome(state, event, config) : state;
  if (event.type !== 'operator.resolution' || state.status === 'resolved') return state;
  const { resolution, by, reason } = event.data;
  const operator = { resolution, by, reason, at: event.time, eventId: event.id, unsafeOverride: 'none' as const };
  if (resolution === 'acknowledged')
    return transition(state, event, { operator, acknowledgedSituation: situationOfProgress(state) });
  if (resolution !== 'reset') return state;
  const policy = noProgressOf(config);
  const track = state.progress!;
  return transition(state, event, {
    operator,
    status: 'resolved',
    retryCount: 0,
    budget: 0,
    progress: emptyTrack(track.read, track.poll, policy),
  });
}

/** The situation an acknowledgement covers: the loop at its level. */
export const situationOfProgress = (s: FailureState): string =>
  `e${s.episode}/${s.status}/${s.progress?.detector ?? '-'}/${s.progress?.level ?? '-'}`;

function onProgressOutcome(state: FailureState, event: ToolCallOutcome, config: TokenCircuitConfig): FailureState {
  const { call, resultDigest } = event.data;
  const track = state.progress!;
  // The read key and the write key of one tool sit at the same coordinates: each counts its own calls.
  if (!isProgressKeyOf(state, call)) return state;
  for (const e of track.entries) if (e.callId === call.callId) return state;
  const policy = noProgressOf(config);
  const next = observe(
    track,
    { callId: call.callId, callDigest: outcomeCallDigestOf(event.data, policy), resultDigest },
    policy,
  );
  const status = statusOf(next);
  // A loop that starts again after it was broken is a new episode of the key (a new trigger for on-call).
  const episode =
    state.status === 'resolved' && status !== 'resolved' && state.version > 0 ? state.episode + 1 : state.episode;
  // Written into one copy, field by field (as onCall does): no patch objects to spread and copy key by key.
  const moved = copyOf(state);
  moved.progress = next;
  moved.status = status;
  moved.episode = episode;
  moved.budget = next.thresholds?.blockAt ?? 0;
  moved.retryCount = next.repeats;
  moved.classificationReason = reasonOf(next);
  moved.lastCall = { agent: call.agent, run: call.run, callId: call.callId };
  if (episode !== state.episode) {
    moved.openedAt = event.time;
    moved.acknowledgedSituation = null;
  }
  return transitioned(moved, state, event);
}
