import { SpanKind, trace, type Attributes } from '@opentelemetry/api';
import type { InterventionData } from '@tokencircuit/contracts';
import { parentContext } from './parent-context.js';
import { governanceTracingEnabled } from './tracing-switch.js';

const tracer = () => trace.getTracer('tokencircuit');

/**
 * One span per event the projector applied, a child of the agent's span the event came from: the agent's
 * trace shows when governance saw its call. Events without a traceparent get none (they have no trace).
 */
export function traceProjectedEvents(
  events: readonly { readonly id: string; readonly type: string; readonly traceparent: string | null }[],
  startedAt: number,
): void {
  if (!governanceTracingEnabled()) return;
  for (const event of events) {
    if (event.traceparent === null) continue;
    tracer()
      .startSpan(
        'tokencircuit.projector project',
        {
          kind: SpanKind.CONSUMER,
          startTime: startedAt,
          attributes: { 'tokencircuit.event.id': event.id, 'tokencircuit.event.type': event.type },
        },
        parentContext(event.traceparent),
      )
      .end();
  }
}

/** What an intervention says, as span attributes: its key, class, level and next allowed action. */
export function interventionAttributes(intervention: InterventionData): Attributes {
  const { artifact } = intervention;
  return {
    'tokencircuit.intervention.id': intervention.interventionId,
    'tokencircuit.intervention.level': intervention.level,
    'tokencircuit.intervention.next_action': intervention.nextAction,
    'tokencircuit.failure.class': artifact.failure_class,
    'tokencircuit.key.id': intervention.keyId,
    'tokencircuit.key.scope': artifact.scope,
    'tokencircuit.key.tool': artifact.equivalence_key.tool_name,
    'tokencircuit.key.resource_class': artifact.equivalence_key.resource_class ?? '',
    'tokencircuit.key.auth_scope': artifact.equivalence_key.auth_scope ?? '',
    'tokencircuit.key.side_effect_boundary': artifact.equivalence_key.side_effect_boundary,
    'tokencircuit.principal': artifact.principal ?? '',
    'tokencircuit.resource.id': artifact.resource_id ?? '',
    'tokencircuit.budget': artifact.budget,
    'tokencircuit.retry_count': artifact.retry_count,
    'tokencircuit.run': intervention.run ?? '',
    'tokencircuit.agent': intervention.agent ?? '',
  };
}

/**
 * The decision service's span for one intervention, a child of the span of the event that caused it, and
 * the intervention itself as a child span (and an event on the decision span): the agent's trace view shows
 * where governance intervened and what it said.
 */
export function traceIntervention(
  intervention: InterventionData,
  causingTraceparent: string | null,
  startedAt: number,
): void {
  if (!governanceTracingEnabled()) return;
  const attributes = interventionAttributes(intervention);
  const decision = tracer().startSpan(
    'tokencircuit.decision decide',
    { startTime: startedAt, attributes: { 'tokencircuit.key.id': intervention.keyId } },
    parentContext(causingTraceparent),
  );
  decision.addEvent('tokencircuit.intervention', attributes);
  tracer()
    .startSpan(
      `tokencircuit.intervention ${intervention.level} ${intervention.nextAction}`,
      { kind: SpanKind.PRODUCER, attributes },
      trace.setSpan(parentContext(causingTraceparent), decision),
    )
    .end();
  decision.end();
}
