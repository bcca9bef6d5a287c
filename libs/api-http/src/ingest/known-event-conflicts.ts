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
 * (CloudEvents: id is unique within source), under the tenant's row-level security.
 * Bodies are compared as the projector stores them: the CloudEvent built from the accepted event, text
 * made storable (U+FFFD for what Postgres cannot hold), without its trace context (tokencircuit_event_body).
 * What is not projected yet cannot be seen here: a conflict that reaches the projector is parked there with
 * the same digest (libs/projection, conflicting_duplicate).
 *
 * Two reads, the second only when needed: almost every event an agent sends is new, so the first asks which of
 * the request's (id, source) pairs are stored at all, by their ids alone; only the events it names (a retry, a
 * reused id) are sent again whole for the body comparison. Every ingest request asks the first: its bodies would
 * make the message several times the request's size.
 */
export async function knownEventConflicts(
  db: ApiDatabase,
  tenant: string,
  events: readonly AgentEvent[],
): Promise<KnownEventConflict[]> {
  if (events.length === 0) return [];
  const identities = JSON.stringify(
    events.map((event, index) => ({ index, id: event.id, source: sourceOfEvent(event) })),
  );
  const stored = (await readAsTenant(db, tenant, storedAmong, identities)) as Array<{ index: number }>;
  if (stored.length === 0) return [];
  const rows = JSON.stringify(
    stored.map(({ index }) => {
      const event = events[index]!;
      return {
        index,
        id: event.id,
        source: sourceOfEvent(event),
        body: JSON.stringify(agentEventToCloudEvent(storableJson(event))),
      };
    }),
  );
  const found = (await readAsTenant(db, tenant, storedWithAnotherBody, rows)) as Array<{
    index: number;
    id: string;
    source: string;
    digest: string;
  }>;
  return found.map((r) => ({ index: r.index, id: r.id, source: r.source, storedDigest: r.digest }));
}

/** The request's positions whose (id, source) the tenant has stored. */
const storedAmong = (tenant: string, rows: string) =>
  `SELECT x.index
     FROM json_to_recordset(${rows}::json) AS x(index int, id text, source text)
     JOIN agent_events e ON e.tenant = ${tenant} AND e.id = x.id AND e.source = x.source
    ORDER BY x.index`;

/** Of the positions given with their bodies, those stored with another body, and the stored event's digest. */
const storedWithAnotherBody = (tenant: string, rows: string) =>
  `SELECT x.index, x.id, x.source, tokencircuit_event_digest(tokencircuit_cloud_event(e)) AS digest
     FROM json_to_recordset(${rows}::json) AS x(index int, id text, source text, body text)
     JOIN agent_events e ON e.tenant = ${tenant} AND e.id = x.id AND e.source = x.source
    WHERE tokencircuit_event_body(tokencircuit_cloud_event(e)) <> tokencircuit_event_body(x.body::json)
    ORDER BY x.index`;

/** One statement over the tenant and a JSON text: in one round trip where the database can (a pool), not three. */
async function readAsTenant(
  db: ApiDatabase,
  tenant: string,
  statement: (tenant: string, rows: string) => string,
  rows: string,
): Promise<Record<string, unknown>[]> {
  if (db.tenants.readAtOnce !== undefined)
    return db.tenants.readAtOnce(tenant, (literal) => statement(literal(tenant), literal(rows)));
  return db.tenants.read(tenant, async (session) => (await session.query(statement('$1', '$2'), [tenant, rows])).rows);
}
