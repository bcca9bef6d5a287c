import { agentOfEvent, eventIdentity, runOfEvent, type AgentEvent } from '@tokencircuit/contracts';
import { queryPreparedIfAble, type SqlSession } from '../sql-database.js';
import { jsonBodies, splitBodies } from './json-bodies.js';

/** An accepted event with where it came from (a log position; offset '' when it has none). */
export interface PositionedAgentEvent {
  readonly event: AgentEvent;
  /** The CloudEvent stored in agent_events.cloud_event (validated, redacted, current version). */
  readonly cloudEvent: unknown;
  readonly topic: string;
  readonly partition: number;
  readonly offset: string;
}

/**
 * What `insertAgentEvents` sends, serialised ahead of time: a chunk's events are known before its
 * transaction takes its coordinate locks, and building these parameters (one JSON text of the rows, the
 * bodies' bytes) is the larger part of the insert's own work in this process, so it need not happen while
 * other chunks wait on those locks.
 */
export interface AgentEventRows {
  readonly count: number;
  readonly rows: string;
  readonly bodies: Buffer;
}

export function agentEventRows(events: readonly PositionedAgentEvent[]): AgentEventRows {
  const rows = events.map(({ event, topic, partition, offset }) => ({
    id: event.id,
    tenant: event.tenant,
    run: runOfEvent(event),
    agent: agentOfEvent(event),
    type: event.type,
    occurred_at: event.time,
    kafka_topic: topic,
    kafka_partition: partition,
    kafka_offset: offset === '' ? null : offset,
  }));
  return { count: events.length, rows: JSON.stringify(rows), bodies: jsonBodies(events.map((e) => e.cloudEvent)) };
}

/** Inserts the events `agentEventRows` serialised; returns the identities (eventIdentity) that were new (a duplicate is a no-op). */
export async function insertAgentEvents(tx: SqlSession, prepared: AgentEventRows): Promise<Set<string>> {
  if (prepared.count === 0) return new Set();
  const { rows: inserted } = await queryPreparedIfAble<{ tenant: string; id: string }>(
    tx,
    'insert-agent-events',
    `INSERT INTO agent_events (id, tenant, run, agent, type, occurred_at, cloud_event, kafka_topic, kafka_partition, kafka_offset)
     SELECT r.id, r.tenant, r.run, r.agent, r.type, r.occurred_at, b.body::json, r.kafka_topic, r.kafka_partition,
            r.kafka_offset
       FROM ROWS FROM (json_to_recordset($1::json) AS (id text, tenant text, run text, agent text, type text,
            occurred_at timestamptz, kafka_topic text, kafka_partition int, kafka_offset bigint))
            WITH ORDINALITY AS r(id, tenant, run, agent, type, occurred_at, kafka_topic, kafka_partition, kafka_offset, ord)
       JOIN ${splitBodies('$2')} WITH ORDINALITY AS b(body, ord) USING (ord)
      ORDER BY ord
     ON CONFLICT (tenant, id) DO NOTHING RETURNING tenant, id`,
    [prepared.rows, prepared.bodies],
  );
  return new Set(inserted.map((r) => eventIdentity(r)));
}
