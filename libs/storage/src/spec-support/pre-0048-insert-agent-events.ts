import { agentOfEvent, runOfEvent, sourceOfEvent } from '@tokencircuit/contracts';
import type { PositionedAgentEvent } from '../projection/insert-agent-events.js';
import { jsonBodies, splitBodies } from '../projection/json-bodies.js';
import type { SqlSession } from '../sql-database.js';

/**
 * What the projector's event insert wrote up to migration 0047, for specs that fill a database the way that build
 * did: every row holds its whole CloudEvent in cloud_event.
 */
export async function insertPre0048AgentEvents(tx: SqlSession, events: readonly PositionedAgentEvent[]): Promise<void> {
  const rows = events.map(({ event, topic, partition, offset }) => ({
    id: event.id,
    tenant: event.tenant,
    source: sourceOfEvent(event),
    run: runOfEvent(event),
    agent: agentOfEvent(event),
    type: event.type,
    occurred_at: event.time,
    kafka_topic: topic,
    kafka_partition: partition,
    kafka_offset: offset === '' ? null : offset,
  }));
  await tx.query(
    `INSERT INTO agent_events (id, tenant, source, run, agent, type, occurred_at, cloud_event, kafka_topic,
            kafka_partition, kafka_offset)
     SELECT r.id, r.tenant, r.source, r.run, r.agent, r.type, r.occurred_at, b.body::json, r.kafka_topic,
            r.kafka_partition, r.kafka_offset
       FROM ROWS FROM (json_to_recordset($1::json) AS (id text, tenant text, source text, run text, agent text,
            type text, occurred_at timestamptz, kafka_topic text, kafka_partition int, kafka_offset bigint))
            WITH ORDINALITY AS r(id, tenant, source, run, agent, type, occurred_at, kafka_topic, kafka_partition,
            kafka_offset, ord)
       JOIN ${splitBodies('$2')} WITH ORDINALITY AS b(body, ord) USING (ord)
      ORDER BY r.ord
     ON CONFLICT (tenant, id, source) DO NOTHING`,
    [JSON.stringify(rows), jsonBodies(events.map((e) => e.cloudEvent))],
  );
}
