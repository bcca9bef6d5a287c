import type { DiagnosticArtifact } from '@tokencircuit/contracts';
import type { FailureState } from '@tokencircuit/governance';
import {
  chainRowAt,
  tenantEventsHead,
  verifyTenantChain,
  type ChainHead,
  type ChainVerification,
  type EventsHead,
  type SqlSession,
} from '@tokencircuit/storage';
import type { VerifyQuery } from './verify-query.js';
import { encodeCursor } from './audit-cursor.js';
import { auditWhere, type AuditQuery } from './audit-query.js';

/** One audit-trail row as the API shows it. */
export interface InterventionRecord {
  readonly seq: number;
  readonly id: string;
  readonly tenant: string;
  readonly run: string | null;
  readonly agent: string | null;
  readonly principal: string | null;
  readonly level: string;
  readonly failureClass: string;
  readonly nextAction: string;
  readonly keyId: string;
  readonly toolName: string;
  readonly resourceClass: string | null;
  readonly authScope: string | null;
  readonly resourceId: string | null;
  readonly safetyJustification: string | null;
  readonly policyVersion: string;
  readonly stateVersion: number;
  readonly causingEventIds: readonly string[];
  readonly issuedAt: string;
  readonly prevHash: string | null;
  readonly hash: string;
}

export interface InterventionPage {
  readonly items: InterventionRecord[];
  /** Pass as `cursor` for the next page; null on the last page. */
  readonly nextCursor: string | null;
}

export interface CausingEvent {
  readonly id: string;
  readonly type: string;
  readonly run: string | null;
  readonly agent: string | null;
  readonly occurredAt: string;
  readonly receivedAt: string;
  readonly cloudEvent: Record<string, unknown>;
  readonly kafka: { topic: string; partition: number; offset: string } | null;
}

export interface InterventionDetail extends InterventionRecord {
  readonly artifact: DiagnosticArtifact;
  readonly causingEvents: CausingEvent[];
}

export interface FailureStateRecord {
  readonly keyId: string;
  readonly tenant: string;
  readonly scope: string;
  readonly status: string;
  readonly version: number;
  readonly updatedAt: string;
  readonly state: FailureState;
}

export interface ChainReport {
  readonly tenant: string;
  readonly result: ChainVerification;
  /** The newest row: keep its hash outside the database to detect a truncated tail later. */
  readonly head: { readonly seq: number; readonly hash: string } | null;
  /** Only when anchor positions were asked for (anchorSeq, eventsThrough): what the trail holds there now. */
  readonly anchorFacts?: {
    readonly chainAtAnchor?: ChainHead | null;
    readonly events?: EventsHead;
  };
}

// seq is bigint (a string from node-postgres). ORDER BY must name interventions.seq: a bare "seq" would
// sort by this text alias, putting 9 after 12.
const RECORD_COLUMNS = `seq::text AS seq, id, tenant, run, agent, principal, level, failure_class, next_action, key_id,
  tool_name, resource_class, auth_scope, resource_id, artifact->>'safety_justification' AS safety_justification,
  policy_version, state_version, causing_event_ids, issued_at, prev_hash, hash`;

interface RecordRow {
  seq: string;
  id: string;
  tenant: string;
  run: string | null;
  agent: string | null;
  principal: string | null;
  level: string;
  failure_class: string;
  next_action: string;
  key_id: string;
  tool_name: string;
  resource_class: string | null;
  auth_scope: string | null;
  resource_id: string | null;
  safety_justification: string | null;
  policy_version: string;
  state_version: number;
  causing_event_ids: string[];
  issued_at: Date | string;
  prev_hash: string | null;
  hash: string;
}

const iso = (value: Date | string): string => new Date(value).toISOString();

function toRecord(row: RecordRow): InterventionRecord {
  return {
    seq: Number(row.seq),
    id: row.id,
    tenant: row.tenant,
    run: row.run,
    agent: row.agent,
    principal: row.principal,
    level: row.level,
    failureClass: row.failure_class,
    nextAction: row.next_action,
    keyId: row.key_id,
    toolName: row.tool_name,
    resourceClass: row.resource_class,
    authScope: row.auth_scope,
    resourceId: row.resource_id,
    safetyJustification: row.safety_justification,
    policyVersion: row.policy_version,
    stateVersion: row.state_version,
    causingEventIds: row.causing_event_ids,
    issuedAt: iso(row.issued_at),
    prevHash: row.prev_hash,
    hash: row.hash,
  };
}

/**
 * The audit reads. Every function takes a session opened by TenantScope.read, i.e. under the
 * tenant's row-level security: none of them filters by tenant itself, so another tenant's id simply
 * finds nothing.
 */
export const auditStore = {
  async interventions(session: SqlSession, query: AuditQuery): Promise<InterventionPage> {
    const { where, params } = auditWhere(query);
    params.push(query.limit + 1);
    const { rows } = await session.query<RecordRow>(
      `SELECT ${RECORD_COLUMNS} FROM interventions ${where} ORDER BY interventions.seq ${query.order} LIMIT $${params.length}`,
      params,
    );
    const items = rows.slice(0, query.limit).map(toRecord);
    const more = rows.length > query.limit;
    return { items, nextCursor: more ? encodeCursor({ seq: items.at(-1)!.seq, order: query.order }) : null };
  },

  async intervention(session: SqlSession, id: string): Promise<InterventionDetail | null> {
    const { rows } = await session.query<RecordRow & { artifact: DiagnosticArtifact }>(
      `SELECT ${RECORD_COLUMNS}, artifact FROM interventions WHERE id = $1`,
      [id],
    );
    const row = rows[0];
    if (!row) return null;
    const events = await session.query<{
      id: string;
      type: string;
      run: string | null;
      agent: string | null;
      occurred_at: Date | string;
      received_at: Date | string;
      cloud_event: Record<string, unknown>;
      kafka_topic: string | null;
      kafka_partition: number | null;
      kafka_offset: string | null;
    }>(
      `SELECT id, type, run, agent, occurred_at, received_at, cloud_event, kafka_topic, kafka_partition, kafka_offset::text AS kafka_offset
         FROM agent_events WHERE tenant = $1 AND id = ANY($2::text[]) ORDER BY occurred_at, id`,
      // Event ids are unique per tenant (agent_events' key): the intervention's own tenant says whose they are.
      [row.tenant, row.causing_event_ids],
    );
    return {
      ...toRecord(row),
      artifact: row.artifact,
      causingEvents: events.rows.map((e) => ({
        id: e.id,
        type: e.type,
        run: e.run,
        agent: e.agent,
        occurredAt: iso(e.occurred_at),
        receivedAt: iso(e.received_at),
        cloudEvent: e.cloud_event,
        kafka:
          e.kafka_topic !== null && e.kafka_partition !== null && e.kafka_offset !== null
            ? { topic: e.kafka_topic, partition: e.kafka_partition, offset: e.kafka_offset }
            : null,
      })),
    };
  },

  async state(session: SqlSession, keyId: string): Promise<FailureStateRecord | null> {
    const { rows } = await session.query<{
      key_id: string;
      tenant: string;
      scope: string;
      status: string;
      version: number;
      updated_at: Date | string;
      state: FailureState;
    }>('SELECT key_id, tenant, scope, status, version, updated_at, state FROM failure_state WHERE key_id = $1', [
      keyId,
    ]);
    const row = rows[0];
    return row
      ? {
          keyId: row.key_id,
          tenant: row.tenant,
          scope: row.scope,
          status: row.status,
          version: row.version,
          updatedAt: iso(row.updated_at),
          state: row.state,
        }
      : null;
  },

  /** Verifies the tenant's whole chain in seq order, a page at a time, so memory stays bounded. */
  async verify(
    session: SqlSession,
    tenant: string,
    anchor: VerifyQuery = { anchorSeq: null, eventsThrough: null },
    pageSize = 1000,
  ): Promise<ChainReport> {
    const result = await verifyTenantChain(session, tenant, { pageSize });
    const { rows } = await session.query<{ seq: string; hash: string }>(
      'SELECT seq::text AS seq, hash FROM interventions ORDER BY interventions.seq DESC LIMIT 1',
    );
    const head = rows[0] ? { seq: Number(rows[0].seq), hash: rows[0].hash } : null;
    if (anchor.anchorSeq === null && anchor.eventsThrough === null) return { tenant, result, head };
    return {
      tenant,
      result,
      head,
      anchorFacts: {
        ...(anchor.anchorSeq === null ? {} : { chainAtAnchor: await chainRowAt(session, tenant, anchor.anchorSeq) }),
        ...(anchor.eventsThrough === null
          ? {}
          : { events: await tenantEventsHead(session, tenant, anchor.eventsThrough, pageSize) }),
      },
    };
  },
};
