import type { CausingEvent } from '../audit/intervention-record.js';
import type { SqlSession } from '../sql-database.js';
import type { AgentEventRow } from '../tables/agent-events.js';

type EventRow = Pick<AgentEventRow, 'id' | 'type' | 'run' | 'agent' | 'kafkaTopic' | 'kafkaPartition'> & {
  /** tokencircuit_cloud_event: the stored CloudEvent, whole or rebuilt from a row cut after its envelope. */
  readonly cloudEvent: Record<string, unknown>;
  readonly occurredAt: Date | string;
  readonly receivedAt: Date | string;
  /** bigint as text: JavaScript numbers cannot hold every Kafka offset. */
  readonly kafkaOffset: string | null;
};

/** `tenant`'s events with these ids (an intervention's causes), oldest first; ids it does not hold are absent. */
export async function readEventsById(
  session: SqlSession,
  tenant: string,
  ids: readonly string[],
): Promise<CausingEvent[]> {
  const { rows } = await session.query<EventRow>(
    `SELECT id, type, run, agent, occurred_at AS "occurredAt", received_at AS "receivedAt",
            tokencircuit_cloud_event(agent_events) AS "cloudEvent",
            kafka_topic AS "kafkaTopic", kafka_partition AS "kafkaPartition", kafka_offset::text AS "kafkaOffset"
       FROM agent_events WHERE tenant = $1 AND id = ANY($2::text[]) ORDER BY occurred_at, id`,
    // Event ids are unique per tenant (agent_events' key), so the tenant says whose they are.
    [tenant, ids],
  );
  return rows.map((e) => ({
    id: e.id,
    type: e.type,
    run: e.run,
    agent: e.agent,
    occurredAt: new Date(e.occurredAt).toISOString(),
    receivedAt: new Date(e.receivedAt).toISOString(),
    cloudEvent: e.cloudEvent,
    kafka:
      e.kafkaTopic !== null && e.kafkaPartition !== null && e.kafkaOffset !== null
        ? { topic: e.kafkaTopic, partition: e.kafkaPartition, offset: e.kafkaOffset }
        : null,
  }));
}
