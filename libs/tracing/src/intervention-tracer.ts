import type { InterventionData } from '@tokencircuit/contracts';
import type { SqlSession } from '@tokencircuit/storage';
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
      const ids = [...new Set(published.flatMap((i) => i.causingEventIds))];
      const { rows } = await db.query<{ tenant: string; id: string; traceparent: string | null }>(
        `SELECT tenant, id, cloud_event->>'traceparent' AS traceparent FROM agent_events
          WHERE id = ANY($1::text[]) AND cloud_event->>'traceparent' IS NOT NULL`,
        [ids],
      );
      const byEvent = new Map(rows.map((r) => [`${r.tenant}/${r.id}`, r.traceparent]));
      for (const intervention of published) {
        // The latest causing event with a trace context: the call that tipped the decision.
        const traceparent =
          [...intervention.causingEventIds]
            .reverse()
            .map((id) => byEvent.get(`${intervention.tenant}/${id}`))
            .find((t) => t) ?? null;
        traceIntervention(intervention, traceparent, startedAt);
      }
    } catch (error) {
      onError(error);
    }
  };
}
