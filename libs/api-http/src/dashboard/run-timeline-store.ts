import { readRunEvents, type InterventionRecord, type SqlSession } from '@tokencircuit/storage';
import { auditStore } from '../audit/audit-store.js';
import { parseAuditQuery } from '../audit/audit-query.js';

/** A run's timeline is bounded: the newest this many events (a page says when more exist). */
export const MAX_TIMELINE_EVENTS = 1_000;

export interface TimelineEvent {
  readonly id: string;
  readonly type: string;
  readonly agent: string | null;
  readonly occurredAt: string;
  /** The event's data as ingested (already validated and redacted by the projector). */
  readonly data: unknown;
}

export interface RunTimeline {
  readonly run: string;
  readonly events: TimelineEvent[];
  readonly truncated: boolean;
  readonly interventions: InterventionRecord[];
}

/** One run's tool calls, outcomes, verifier results and operator events, with the decisions about it. */
export const runTimelineStore = {
  async timeline(session: SqlSession, run: string): Promise<RunTimeline | null> {
    const { events, truncated } = await readRunEvents(session, run, MAX_TIMELINE_EVENTS);
    const interventions = await auditStore.interventions(
      session,
      parseAuditQuery({ run, order: 'asc', limit: String(500) }),
    );
    if (events.length === 0 && interventions.items.length === 0) return null;
    return {
      run,
      events: events.map((e) => ({
        id: e.id,
        type: e.type,
        agent: e.agent,
        occurredAt: new Date(e.occurredAt).toISOString(),
        data: e.data,
      })),
      truncated,
      interventions: interventions.items,
    };
  },
};
