import type { AgentEvent, InterventionData } from '@tokencircuit/contracts';
import {
  decide,
  interventionFor,
  replayEvents,
  type Decision,
  type FailureStatus,
  type TokenCircuitConfig,
} from '@tokencircuit/governance';

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
 * Folds a trace with the core's reference fold (replayEvents: duplicates by id skipped, as the
 * agent_events primary key skips them) and decides every outbox entry. issuedAt is the state's
 * updatedAt, so the same trace always prints the same interventions (pure).
 */
export function simulateTrace(trace: readonly TracedEvent[], config: TokenCircuitConfig): SimulatedDecision[] {
  const lineOf = new Map<string, number>();
  for (const { line, event } of trace) if (!lineOf.has(event.id)) lineOf.set(event.id, line);
  const { outbox } = replayEvents(
    trace.map((t) => t.event),
    config,
  );
  return outbox.map((entry) => {
    const state = entry.snapshot;
    const eventId = state.causingEventIds[state.causingEventIds.length - 1] ?? '';
    return {
      line: lineOf.get(eventId) ?? 0,
      eventId,
      outboxId: entry.id,
      keyId: entry.keyId,
      stateVersion: entry.stateVersion,
      status: state.status,
      decision: decide(state, config),
      intervention: interventionFor(entry, config, state.updatedAt),
    };
  });
}
