import { eventIdentity, type AgentEvent, type InterventionData } from '@tokencircuit/contracts';
import { createGovernance, type Decision, type FailureStatus, type TokenCircuitConfig } from '@tokencircuit/governance';

/** An agent event and the input line it came from. */
export interface TracedEvent {
  readonly line: number;
  readonly event: AgentEvent;
}

/** One outbox entry of the fold: the decision the engine takes and the intervention it would emit. */
export interface SimulatedDecision {
  /** Input line of the event that caused the transition. */
  readonly line: number;
  readonly eventId: string;
  readonly outboxId: string;
  readonly keyId: string;
  readonly stateVersion: number;
  readonly status: FailureStatus;
  readonly decision: Decision;
  /** null when the decision needs no intervention (e.g. the key resolved). */
  readonly intervention: InterventionData | null;
}

/**
 * Folds a trace with the core's reference fold (governance.replay: duplicates by tenant and id skipped, as the
 * agent_events primary key skips them) and decides every outbox entry. issuedAt is the state's
 * updatedAt, so the same trace always prints the same interventions (pure).
 */
export function simulateTrace(trace: readonly TracedEvent[], config: TokenCircuitConfig): SimulatedDecision[] {
  const lineOf = new Map<string, number>();
  // Keyed like the fold's dedupe: a trace may hold several tenants, whose event ids may coincide.
  for (const { line, event } of trace) if (!lineOf.has(eventIdentity(event))) lineOf.set(eventIdentity(event), line);
  const governance = createGovernance(config);
  const { outbox } = governance.replay(trace.map((t) => t.event));
  return outbox.map((entry) => {
    const state = entry.snapshot;
    const eventId = state.causingEventIds[state.causingEventIds.length - 1] ?? '';
    return {
      line: lineOf.get(eventIdentity({ tenant: entry.tenant, id: eventId })) ?? 0,
      eventId,
      outboxId: entry.id,
      keyId: entry.keyId,
      stateVersion: entry.stateVersion,
      status: state.status,
      decision: governance.decide(state),
      intervention: governance.intervention(entry, state.updatedAt),
    };
  });
}
