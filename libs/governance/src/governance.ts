import type {
  AgentEvent,
  DiagnosticArtifact,
  InterventionData,
  ToolCall,
  ToolCallOutcome,
} from '@tokencircuit/contracts';
import { buildArtifact } from './artifact/build-artifact.js';
import { interventionFor } from './artifact/intervention.js';
import type { TokenCircuitConfig } from './config/config.js';
import { policyVersion } from './config/policy-version.js';
import { decide } from './decide/decide.js';
import { classificationOf, route, type Route } from './keys/route.js';
import type { Classification, Decision, FailureState } from './model.js';
import { preflight, type PreflightResult } from './preflight/preflight.js';
import type { ProgressMemories } from './progress/progress-memory.js';
import { evolve } from './state/evolve.js';
import { replay, type Replay } from './state/fold.js';
import type { OutboxEntry } from './state/outbox-entry.js';
import { project, type Projection } from './state/project-event.js';
import type { DeepReadonly } from './support/deep-freeze.js';

/**
 * The core under one policy: every rule, bound to the policy it judges by, one name per operation.
 * Pure like each function it binds (no clock, no I/O): build it once per policy and pass it around.
 */
export interface Governance {
  readonly policy: TokenCircuitConfig;
  /** "sha256:<hex>" of the policy, recorded in every artifact. */
  readonly version: string;
  /** The failure class of an outcome under the policy (null = a success, or an empty result the policy accepts). */
  classify(outcome: ToolCallOutcome['data']): Classification | null;
  /** Which failure states an event may read or create. */
  route(event: AgentEvent): Route;
  /** The state of one key after an event (the decider's evolve); the same object when the event is not about it. */
  evolve(state: FailureState | null, event: AgentEvent): FailureState | null;
  /**
   * Applies an event to its candidate states (any superset of the matching ones) and the fold's run
   * memories (the memory store, or any Map the caller keeps them in): the states it changed or opened,
   * the outbox entries it needs and the memory it wrote. Pass `routed` when the caller routed already.
   */
  project(
    candidates: Iterable<FailureState>,
    event: AgentEvent,
    memories: ProgressMemories,
    routed?: Route,
  ): Projection;
  /** The reference fold of the distinct events: what failure_state and the outbox must hold. */
  replay(events: Iterable<AgentEvent>): Replay;
  decide(state: FailureState): Decision;
  /** "May this call run now?", judged against the projected states (any superset of the matching ones). */
  preflight(states: Iterable<FailureState>, tenant: string, call: ToolCall, now: string): PreflightResult;
  /** The evidence behind a decision. */
  artifact(state: FailureState, decision: Decision): DeepReadonly<DiagnosticArtifact>;
  /** The intervention an outbox entry produces (null when none is needed); `issuedAt` is the caller's clock. */
  intervention(entry: OutboxEntry, issuedAt: string): InterventionData | null;
}

export function createGovernance(policy: TokenCircuitConfig): Governance {
  return {
    policy,
    version: policyVersion(policy),
    classify: (outcome) => classificationOf(outcome, policy),
    route: (event) => route(event, policy),
    evolve: (state, event) => evolve(state, event, policy),
    project: (candidates, event, memories, routed = route(event, policy)) =>
      project(candidates, event, routed, policy, memories),
    replay: (events) => replay(events, policy),
    decide: (state) => decide(state, policy),
    preflight: (states, tenant, call, now) => preflight(states, tenant, call, policy, now),
    artifact: (state, decision) => buildArtifact(state, decision, policy),
    intervention: (entry, issuedAt) => interventionFor(entry, policy, issuedAt),
  };
}
