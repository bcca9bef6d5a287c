import { parseAgentEvent, type AgentEvent, type InterventionData } from '@tokencircuit/contracts';
import { createGovernance, type TokenCircuitConfig } from '@tokencircuit/governance';
import { simulateTrace } from '../simulate/simulate-trace.js';
import type { Scenario } from '../scenarios/scenario.js';

/** What the core predicts a scenario's events produce: the server must agree, id for id. */
export interface Expectations {
  readonly events: readonly AgentEvent[];
  /** Every intervention the fold's outbox produces, in order (ids are stable: UUIDv5 of key@version). */
  readonly interventions: readonly InterventionData[];
}

export function expectationsOf(scenario: Scenario, policy: TokenCircuitConfig): Expectations {
  const events = scenario.steps.flatMap((step) => (step.kind === 'event' ? [parseAgentEvent(step.event)] : []));
  const decisions = simulateTrace(
    events.map((event, i) => ({ line: i + 1, event })),
    policy,
  );
  return { events, interventions: decisions.flatMap((d) => (d.intervention ? [d.intervention] : [])) };
}

/** Key id → state version after folding `events`: what the server's failure_state must have reached. */
export function expectedVersions(events: readonly AgentEvent[], policy: TokenCircuitConfig): Map<string, number> {
  return new Map([...createGovernance(policy).replay(events).states].map(([keyId, state]) => [keyId, state.version]));
}
