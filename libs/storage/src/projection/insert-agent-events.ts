import { agentOfEvent, runOfEvent, sourceOfEvent, storedEventIdentity, type AgentEvent } from '@tokencircuit/contracts';
import { queryPreparedIfAble, type SqlSession } from '../sql-database.js';
import { envelopeCut } from './cloud-event-envelope.js';
import { joinBodies, splitBodies } from './json-bodies.js';

/** An accepted event with where it came from (a log position; offset '' when it has none). */
export interface PositionedAgentEvent {
  readonly event: AgentEvent;
  /** The CloudEvent agent_events stores (validated, redacted, current version): whole, or cut after its envelope. */
  readonly cloudEvent: unknown;
  readonly topic: string;
  readonly partition: number;
  readonly offset: string;
}

/**
 * What `insertAgentEvents` sends, serialised ahead of time: a chunk's events are known before its
 * transaction takes its coordinate locks, and building these parameters (one JSON text of the rows, the
 * bodies' bytes) is the larger part of the insert's own work in this process, so it need not happen while
 * other chunks wait on those locks. A CloudEvent whose envelope the row's columns rebuild exactly (envelopeCut) is
 * stored as its tail and type version (migration 0048): ≈ 205 bytes less of heap and WAL per event; readers get the
 * same text back through tokencircuit_cloud_event.
 */
export interface AgentEventRows {
  readonly count: number;
  readonly rows: string;
  readonly bodies: Buffer;
}

export function agentEventRows(events: readonly PositionedAgentEvent[]): AgentEventRows {
  const texts: string[] = [];
  const rows = events.map(({ event, cloudEvent, topic, partition, offset }) => {
    const text = JSON.stringify(cloudEvent);
    texts.push(text);
    const source = sourceOfEvent(event);
    const run = runOfEvent(event);
    const cut = envelopeCut(
      { id: event.id, source, type: event.type, time: event.time, tenant: event.tenant, run },
      text,
    );
    return {
      id: event.id,
      tenant: event.tenant,
      source,
      run,
      agent: agentOfEvent(event),
      type: event.type,
      occurred_at: event.time,
      kafka_topic: topic,
      kafka_partition: partition,
      kafka_offset: offset === '' ? null : offset,
      envelope_length: cut?.length ?? null,
      type_version: cut?.typeVersion ?? null,
    };
  });
  return { count: events.length, rows: JSON.stringify(rows), bodies: joinBodies(texts) };
}

/** What one insert found: the identities new to agent_events, and those stored before with another body. */
export interface InsertedAgentEvents {
  /** storedEventIdentity of each event inserted now. */
  readonly inserted: Set<string>;
  /** storedEventIdentity → the stored event's digest (tokencircuit_event_digest), for each conflicting duplicate. */
  readonly conflicts: Map<string, string>;
}

/**
 * Inserts the events `agentEventRows` serialised. An identity already stored (tenant, id, source) is not
 * inserted again: with the same body (a redelivery, a producer's retry) that is a no-op; with another body
 * it is a conflict, found in the same statement (the stored body is read only for the rows the insert
 * skipped, by primary key) and returned with the stored event's digest. Rows of one call must have
 * distinct identities (project dedupes a chunk first). Under concurrent inserts of one identity, the
 * loser's statement snapshot may not see the winner's row: it then counts as a plain duplicate.
 */
export async function insertAgentEvents(tx: SqlSession, prepared: AgentEventRows): Promise<InsertedAgentEvents> {
  if (prepared.count === 0) return { inserted: new Set(), conflicts: new Map() };
  const { rows } = await queryPreparedIfAble<{
    tenant: string;
    id: string;
    source: string;
    stored_digest: string | null;
  }>(tx, 'insert-agent-events-v4', agentEventsInsertFrom(ROWS_OF_PARAMETERS), [prepared.rows, prepared.bodies]);
  const inserted = new Set<string>();
  const conflicts = new Map<string, string>();
  for (const row of rows) {
    if (row.stored_digest === null) inserted.add(storedEventIdentity(row));
    else conflicts.set(storedEventIdentity(row), row.stored_digest);
  }
  return { inserted, conflicts };
}

/** The rows `agentEventRows` serialised, as a query: its columns, the body and the order. */
const ROWS_OF_PARAMETERS = `SELECT r.*, b.body
         FROM ROWS FROM (json_to_recordset($1::json) AS (id text, tenant text, source text, run text, agent text,
              type text, occurred_at timestamptz, kafka_topic text, kafka_partition int, kafka_offset bigint,
              envelope_length int, type_version text))
              WITH ORDINALITY AS r(id, tenant, source, run, agent, type, occurred_at, kafka_topic, kafka_partition,
              kafka_offset, envelope_length, type_version, ord)
         JOIN ${splitBodies('$2')} WITH ORDINALITY AS b(body, ord) USING (ord)`;

/**
 * The insert of the rows `input` selects (the columns of agentEventRows, `body` and `ord`): each new identity stored in
 * order, each skipped one compared with what is stored. bench:event-insert runs it over other inputs.
 */
export const agentEventsInsertFrom = (input: string): string => `WITH input AS MATERIALIZED (${input}),
     inserted AS (
       INSERT INTO agent_events (id, tenant, source, run, agent, type, occurred_at, cloud_event, type_version,
              cloud_event_tail, kafka_topic, kafka_partition, kafka_offset)
       SELECT id, tenant, source, run, agent, type, occurred_at,
              CASE WHEN envelope_length IS NULL THEN body::json END, type_version,
              substr(body, envelope_length + 1), kafka_topic, kafka_partition, kafka_offset
         FROM input ORDER BY ord
       ON CONFLICT (tenant, id, source) DO NOTHING RETURNING tenant, id, source
     ), skipped AS MATERIALIZED (
       SELECT i.tenant, i.id, i.source, i.body FROM input i
        WHERE NOT EXISTS (SELECT 1 FROM inserted n WHERE (n.tenant, n.id, n.source) = (i.tenant, i.id, i.source))
     )
     SELECT tenant, id, source, NULL AS stored_digest FROM inserted
     UNION ALL
     SELECT s.tenant, s.id, s.source, tokencircuit_event_digest(tokencircuit_cloud_event(e))
       FROM skipped s JOIN agent_events e ON (e.tenant, e.id, e.source) = (s.tenant, s.id, s.source)
      WHERE tokencircuit_event_body(tokencircuit_cloud_event(e)) <> tokencircuit_event_body(s.body::json)`;
