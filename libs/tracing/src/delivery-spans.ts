import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { SqlSession } from '@tokencircuit/storage';
import { causingTraceparents, latestTraceparent } from './causing-traceparents.js';
import { parentContext } from './parent-context.js';
import { governanceTracingEnabled } from './tracing-switch.js';

/** One delivery attempt of an episode step to a sink, as the notifier saw it. */
export interface DeliveryFacts {
  readonly tenant: string;
  readonly deliveryId: string;
  readonly sink: string;
  readonly sinkType: string;
  readonly attempt: number;
  readonly transition: string;
  readonly level: string;
  readonly failureClass: string;
  readonly keyId: string;
  readonly causingEventIds: readonly string[];
  /** sent | retriable | permanent | skipped */
  readonly outcome: string;
  readonly status: number | null;
}

/**
 * The notifier's span for one delivery attempt (a page, a resolve), a child of the agent's span whose call
 * caused the episode: the agent's trace shows who was paged about it and whether the sink took it. Never
 * fails a delivery: a read that fails costs only the span.
 */
export function deliveryTracer(db: SqlSession, onError: (error: unknown) => void) {
  return async (facts: DeliveryFacts, startedAt: number): Promise<void> => {
    if (!governanceTracingEnabled()) return;
    try {
      const byEvent = await causingTraceparents(
        db,
        facts.causingEventIds.map((id) => ({ tenant: facts.tenant, id })),
      );
      const span = trace.getTracer('tokencircuit').startSpan(
        `tokencircuit.notifier deliver ${facts.sinkType}`,
        {
          kind: SpanKind.CLIENT,
          startTime: startedAt,
          attributes: {
            'tokencircuit.delivery.id': facts.deliveryId,
            'tokencircuit.delivery.attempt': facts.attempt,
            'tokencircuit.delivery.outcome': facts.outcome,
            'tokencircuit.sink': facts.sink,
            'tokencircuit.sink.type': facts.sinkType,
            'tokencircuit.episode.transition': facts.transition,
            'tokencircuit.intervention.level': facts.level,
            'tokencircuit.failure.class': facts.failureClass,
            'tokencircuit.key.id': facts.keyId,
            ...(facts.status === null ? {} : { 'http.response.status_code': facts.status }),
          },
        },
        parentContext(latestTraceparent(byEvent, facts.tenant, facts.causingEventIds)),
      );
      if (facts.outcome === 'retriable' || facts.outcome === 'permanent')
        span.setStatus({ code: SpanStatusCode.ERROR, message: `delivery ${facts.outcome}` });
      span.end();
    } catch (error) {
      onError(error);
    }
  };
}
