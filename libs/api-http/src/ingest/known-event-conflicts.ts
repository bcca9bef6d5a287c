import { agentEventToCloudEvent, sourceOfEvent, storableJson, type AgentEvent } from '@tokencircuit/contracts';
import type { ApiDatabase } from '../api-database.port.js';

/** An event of a request whose (tenant, id, source) is stored with another body. */
export interface KnownEventConflict {
  /** Position in the request's batch. */
  readonly index: number;
  readonly id: string;
  readonly source: string;
  /** tokencircuit_event_digest of the stored event (migration 0035): "sha256:" and 64 hex digits. */
  readonly storedDigest: string;
}

/**
 * The events of a validated request that reuse a stored event's id within its source with another body
 * (CloudEvents: id is unique within source), found in one read under the tenant's row-level security.
 * Bodies are compared as the projector stores them: the CloudEvent built from the accepted event, text
 * made storable (U+FFFD for what Postgres cannot hold), without its trace context (tokencircuit_event_body).
 * What is not projected yet cannot be seen here: a conflict that reaches the projector is parked there with
 * the same digest (libs/projection, conflicting_duplicate).
 */
export async function knownEventConflicts(
  db: ApiDatabase,
  tenant: string,
  events: readonly AgentEvent[],
): Promise<KnownEventConflict[]> {
  if (events.length === 0) return [];
  const rows = JSON.stringify(
    events.map((event, index) => ({
      index,
      id: event.id,
      source: sourceOfEvent(event),
      body: JSON.stringify(agentEventToCloudEvent(storableJson(event))),
    })),
  );
  const select = (tenantLiteral: string, rowsLiteral: string) =>
    `SELECT x.index, x.id, x.source, tokencircuit_event_digest(tokencircuit_cloud_event(e)) AS digest
       FROM json_to_recordset(${rowsLiteral}::json) AS x(index int, id text, source text, body text)
       JOIN agent_events e ON e.tenant = ${tenantLiteral} AND e.id = x.id AND e.source = x.source
      WHERE tokencircuit_event_body(tokencircuit_cloud_event(e)) <> tokencircuit_event_body(x.body::json)
      ORDER BY x.index`;
  // Every ingest request asks this: in one round trip where the database can (a pool), not three.
  const found = (
    db.tenants.readAtOnce !== undefined
      ? await db.tenants.readAtOnce(tenant, (literal) => select(literal(tenant), literal(rows)))
      : await db.tenants.read(tenant, async (session) => (await session.query(select('$1', '$2'), [tenant, rows])).rows)
  ) as Array<{ index: number; id: string; source: string; digest: string }>;
  return found.map((r) => ({ index: r.index, id: r.id, source: r.source, storedDigest: r.digest }));
}
