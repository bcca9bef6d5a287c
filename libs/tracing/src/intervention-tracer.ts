import type { InterventionData } from '@tokencircuit/contracts';
import type { SqlSession } from '@tokencircuit/storage';
import { causingTraceparents, latestTraceparent } from './causing-traceparents.js';
import { traceIntervention } from './governance-spans.js';
import { governanceTracingEnabled } from './tracing-switch.js';

/**
 * The decision loop's observer when tracing is on: reads the trace context of each intervention's causing
 * events (agent_events keeps it in the stored CloudEvent) and records the decision and intervention spans
 * under the latest of them. Never fails a round: a read that fails costs only the spans.
 */
export function interventionTracer(db: SqlSession, onError: (error: unknown) => void) {
  return async (published: readonly InterventionData[], startedAt: number): Promise<void> => {
    if (!governanceTracingEnabled() || published.length === 0) return;
    try {
      const byEvent = await causingTraceparents(
        db,
        published.flatMap((i) => i.causingEventIds.map((id) => ({ tenant: i.tenant, id }))),
      );
      for (const intervention of published) {
        traceIntervention(
          intervention,
          latestTraceparent(byEvent, intervention.tenant, intervention.causingEventIds),
          startedAt,
        );
      }
    } catch (error) {
      onError(error);
    }
  };
}
