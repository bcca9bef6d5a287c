import type { SqlSession } from '@tokencircuit/storage';
import { auditStore, type InterventionRecord } from '../audit/audit-store.js';
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

const iso = (value: Date | string): string => new Date(value).toISOString();

/** One run's tool calls, outcomes, verifier results and operator events, with the decisions about it. */
export const runTimelineStore = {
  async timeline(session: SqlSession, run: string): Promise<RunTimeline | null> {
    const { rows } = await session.query<{
      id: string;
      type: string;
      agent: string | null;
      occurred_at: Date | string;
      data: unknown;
    }>(
      `SELECT id, type, agent, occurred_at, data FROM (
         SELECT id, type, agent, occurred_at, seq, cloud_event->'data' AS data
           FROM agent_events WHERE run = $1 ORDER BY occurred_at DESC, seq DESC LIMIT $2
       ) newest ORDER BY occurred_at, seq`,
      [run, MAX_TIMELINE_EVENTS + 1],
    );
    const truncated = rows.length > MAX_TIMELINE_EVENTS;
    const kept = truncated ? rows.slice(1) : rows;
    const interventions = await auditStore.interventions(
      session,
      parseAuditQuery({ run, order: 'asc', limit: String(500) }),
    );
    if (kept.length === 0 && interventions.items.length === 0) return null;
    return {
      run,
      events: kept.map((r) => ({
        id: r.id,
        type: r.type,
        agent: r.agent,
        occurredAt: iso(r.occurred_at),
        data: r.data,
      })),
      truncated,
      interventions: interventions.items,
    };
  },
};
