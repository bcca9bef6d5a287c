import type { AgentEvent } from '@tokencircuit/contracts';
import type { TokenCircuitConfig } from '../config/config.js';
import type { Route } from '../keys/route.js';
import type { FailureState } from '../model.js';
import { concerns } from '../keys/candidate-selection.js';
import { evolveRouted, opens } from './evolve.js';
import { isReadCall } from './judge-attempt.js';
import { needsDecision } from './needs-decision.js';
import { EMPTY_RESULT_REASON } from './open-episode.js';
import { outboxEntryOf, type OutboxEntry } from './outbox-entry.js';
import { isProgressFact, isProgressKeyOf, rememberProgress } from '../progress/progress-state.js';
import {
  progressMemoryIdOfCall,
  type ProgressMemories,
  type ProgressMemoryWrite,
} from '../progress/progress-memory.js';

export interface Projection {
  /** Every state the event moved or created, in key-id order (unchanged states are not listed). */
  readonly changed: readonly FailureState[];
  /** One entry per transition that needs a decision. */
  readonly outbox: readonly OutboxEntry[];
  /**
   * The run memory the event wrote (a digested success while no no_progress key exists at its
   * coordinates), or dropped (memory null: the key was opened from it); null when none.
   */
  readonly memory: ProgressMemoryWrite | null;
}

const NONE: readonly never[] = Object.freeze([]);
const NOTHING: Projection = Object.freeze({ changed: NONE, outbox: NONE, memory: null });

/**
 * Applies one routed event to its candidate states (any superset of the matching ones, in any
 * order) and the fold's run memories: evolves every state routing selects, opens the key a new
 * failure lands in, and observes a digested success in the run memory until a detector finds a loop.
 */
export function project(
  candidates: Iterable<FailureState>,
  event: AgentEvent,
  routed: Route,
  config: TokenCircuitConfig,
  memories: ProgressMemories,
): Projection {
  let changed: FailureState[] | null = null;
  let outbox: OutboxEntry[] | null = null;
  let createExists = false;
  let reconciling = false;
  // The run's no_progress key at the call's coordinates (opened below by its first successful call).
  let progressExists = false;
  for (const state of candidates) {
    if (!concerns(state, routed)) continue;
    if (state.keyId === routed.createKeyId) createExists = true;
    if (state.failureClass === 'no_progress' && !progressExists && event.type === 'tool_call.outcome')
      progressExists = isProgressKeyOf(state, event.data.call);
    if (!reconciling && reconciles(state, event)) reconciling = true;
    const next = evolveRouted(state, event, routed, config);
    if (next === state) continue;
    (changed ??= []).push(next);
    if (needsDecision(state, next)) (outbox ??= []).push(outboxEntryOf(next));
  }
  // An empty read-back of an uncertain write is the reconciliation itself (the verifier reports
  // what it found): it opens no key, and hence no intervention, of its own.
  const reconciliationRead = reconciling && routed.classification?.reason === EMPTY_RESULT_REASON;
  if (!createExists && routed.create !== null && !reconciliationRead) {
    const opened = opens(routed, event, config);
    if (opened !== null) {
      (changed ??= []).push(opened);
      (outbox ??= []).push(outboxEntryOf(opened));
    }
  }
  let memory: ProgressMemoryWrite | null = null;
  if (!progressExists && isProgressFact(event, config)) {
    const byCoordinates = memories.atCall !== undefined && memories.writeAt !== undefined;
    const id = byCoordinates ? null : progressMemoryIdOfCall(event.tenant, event.data.call);
    const current = id === null ? memories.atCall!(event.tenant, event.data.call) : memories.get(id);
    const step = rememberProgress(event, current, config);
    if (step !== null) {
      const next = 'memory' in step ? step.memory : null;
      memory = id === null ? memories.writeAt!(next) : { id, memory: next };
      if (!('memory' in step)) {
        (changed ??= []).push(step.opened);
        (outbox ??= []).push(outboxEntryOf(step.opened));
      }
    }
  }
  if (changed === null) return memory === null ? NOTHING : { changed: NONE, outbox: NONE, memory };
  // Candidates arrive in whatever order their store keeps; key-id order makes the result the same
  // for the projector's rows and the reference fold's index.
  if (changed.length > 1) changed.sort(byKeyId);
  if (outbox !== null && outbox.length > 1) outbox.sort(byKeyId);
  return { changed, outbox: outbox ?? NONE, memory };
}

/** A read at the coordinates of a write that awaits read-after-write verification. */
const reconciles = (state: FailureState, event: AgentEvent): boolean =>
  event.type === 'tool_call.outcome' &&
  state.status === 'awaiting_verification' &&
  state.verifierRequired === 'read_after_write' &&
  isReadCall(event.data.call);

const byKeyId = (a: { keyId: string }, b: { keyId: string }): number =>
  a.keyId < b.keyId ? -1 : a.keyId > b.keyId ? 1 : 0;
