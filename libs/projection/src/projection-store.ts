import { agentOfEvent, eventIdentity, runOfEvent, type AgentEvent } from '@tokencircuit/contracts';
import type { FailureState, OutboxEntry } from '@tokencircuit/governance';
import type { SqlSession } from '@tokencircuit/storage';

/** An accepted event with where it came from (Kafka position; null offset for HTTP/embedded ingest). */
export interface PositionedEvent {
  readonly event: AgentEvent;
  readonly cloudEvent: unknown;
  readonly topic: string;
  readonly partition: number;
  readonly offset: string;
}

/** The coordinates a batch touches: every failure_state row that might match is loaded and locked. */
export interface StateCoordinates {
  readonly runs: ReadonlyArray<readonly [tenant: string, run: string]>;
  readonly principals: ReadonlyArray<readonly [tenant: string, principal: string]>;
  readonly keyIds: readonly string[];
}

/** What a chunk writes once folded; the checkpoint moves in the same statement as the state. */
export interface FoldWrites {
  readonly states: readonly FailureState[];
  readonly outbox: readonly OutboxEntry[];
  /** Next offset per partition; a checkpoint only ever moves forward (GREATEST). */
  readonly checkpoints: { readonly group: string; readonly topic: string; readonly next: ReadonlyMap<number, bigint> };
}

/** SQL of the projector's one-transaction-per-batch write path (node-postgres and PGlite alike). */
export const projectionStore = {
  /** Where this group really is on each partition: the checkpoint written with the read model. */
  async lockCheckpoints(tx: SqlSession, group: string, topic: string, partitions: readonly number[]) {
    const { rows } = await tx.query<{ partition: number; next_offset: string }>(
      `SELECT partition, next_offset::text AS next_offset FROM projector_checkpoints
        WHERE consumer_group = $1 AND topic = $2 AND partition = ANY($3::int[]) FOR UPDATE`,
      [group, topic, partitions],
    );
    return new Map(rows.map((r) => [r.partition, BigInt(r.next_offset)]));
  },

  /** Inserts the batch's events; returns the identities (eventIdentity) that were new (a duplicate is a no-op). */
  async insertEvents(tx: SqlSession, events: readonly PositionedEvent[]): Promise<Set<string>> {
    if (events.length === 0) return new Set();
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
    const { rows: inserted } = await tx.query<{ tenant: string; id: string }>(
      `INSERT INTO agent_events (id, tenant, run, agent, type, occurred_at, cloud_event, kafka_topic, kafka_partition, kafka_offset)
       SELECT r.id, r.tenant, r.run, r.agent, r.type, r.occurred_at, b.body::json, r.kafka_topic, r.kafka_partition,
              r.kafka_offset
         FROM ROWS FROM (jsonb_to_recordset($1::jsonb) AS (id text, tenant text, run text, agent text, type text,
              occurred_at timestamptz, kafka_topic text, kafka_partition int, kafka_offset bigint))
              WITH ORDINALITY AS r(id, tenant, run, agent, type, occurred_at, kafka_topic, kafka_partition, kafka_offset, ord)
         JOIN ${splitBodies('$2')} WITH ORDINALITY AS b(body, ord) USING (ord)
        ORDER BY ord
       ON CONFLICT (tenant, id) DO NOTHING RETURNING tenant, id`,
      [JSON.stringify(rows), jsonBodies(events.map((e) => e.cloudEvent))],
    );
    return new Set(inserted.map((r) => eventIdentity(r)));
  },

  /**
   * Serialises every writer touching the same coordinates, in one global order so two projectors never
   * deadlock; row locks alone cannot stop two instances from creating the same fleet key at once.
   */
  async lockCoordinates(tx: SqlSession, lockNames: readonly string[]) {
    if (lockNames.length === 0) return;
    const sorted = [...new Set(lockNames)].sort();
    await tx.query(
      `SELECT count(pg_advisory_xact_lock(hashtextextended(name, 0)))
         FROM (SELECT name FROM unnest($1::text[]) WITH ORDINALITY AS t(name, i) ORDER BY i) AS ordered`,
      [sorted],
    );
  },

  async loadStates(tx: SqlSession, at: StateCoordinates): Promise<Map<string, FailureState>> {
    // One index-driven branch per kind of coordinate: written as one WHERE with ORs, the planner could
    // only answer it with a sequential scan, so every chunk cost time in proportion to the whole table.
    const { rows } = await tx.query<{ state: FailureState }>(
      `SELECT state FROM failure_state WHERE key_id IN (
         SELECT f.key_id FROM failure_state f
           JOIN unnest($1::text[], $2::text[]) AS r(tenant, run) ON f.tenant = r.tenant AND f.run = r.run
         UNION ALL
         SELECT f.key_id FROM failure_state f
           JOIN unnest($3::text[], $4::text[]) AS p(tenant, principal)
             ON f.scope = 'fleet' AND f.tenant = p.tenant AND f.principal = p.principal
         UNION ALL
         SELECT unnest($5::text[]))
        ORDER BY key_id FOR UPDATE`,
      [
        at.runs.map((r) => r[0]),
        at.runs.map((r) => r[1]),
        at.principals.map((p) => p[0]),
        at.principals.map((p) => p[1]),
        at.keyIds,
      ],
    );
    return new Map(rows.map((r) => [r.state.keyId, r.state]));
  },

  /**
   * Everything a chunk writes after its fold, in one statement (one round trip): the changed states,
   * the outbox rows and the checkpoint, as data-modifying CTEs of the caller's transaction.
   */
  async saveFold(tx: SqlSession, fold: FoldWrites) {
    const parts: string[] = [];
    const params: unknown[] = [];
    const param = (value: unknown) => `$${params.push(value)}`;
    if (fold.states.length > 0) {
      parts.push(`states AS (
       INSERT INTO failure_state (key_id, tenant, scope, run, principal, resource_id, tool_name, resource_class,
              auth_scope, error_class, side_effect_boundary, status, budget, retry_count, verifier_status, state,
              version, updated_at)
       SELECT * FROM jsonb_to_recordset(${param(JSON.stringify(fold.states.map(stateRowOf)))}::jsonb) AS r(key_id text,
              tenant text, scope text, run text, principal text, resource_id text, tool_name text, resource_class text,
              auth_scope text, error_class text, side_effect_boundary boolean, status text, budget int, retry_count int,
              verifier_status text, state jsonb, version int, updated_at timestamptz)
       ON CONFLICT (key_id) DO UPDATE SET status = EXCLUDED.status, budget = EXCLUDED.budget,
              retry_count = EXCLUDED.retry_count, verifier_status = EXCLUDED.verifier_status,
              state = EXCLUDED.state, version = EXCLUDED.version, updated_at = EXCLUDED.updated_at)`);
    }
    if (fold.outbox.length > 0) {
      parts.push(`outbox AS (
       INSERT INTO decision_outbox (id, tenant, key_id, state_version, state_snapshot)
       SELECT m.id, m.tenant, m.key_id, m.state_version, s.snapshot::json
         FROM ROWS FROM (jsonb_to_recordset(${param(JSON.stringify(fold.outbox.map(outboxRowOf)))}::jsonb)
              AS (id text, tenant text, key_id text, state_version int))
              WITH ORDINALITY AS m(id, tenant, key_id, state_version, ord)
         JOIN ${splitBodies(param(jsonBodies(fold.outbox.map((e) => e.snapshot))))} WITH ORDINALITY AS s(snapshot, ord)
              USING (ord)
       ON CONFLICT (id) DO NOTHING)`);
    }
    const { group, topic, next } = fold.checkpoints;
    if (next.size > 0) {
      parts.push(`checkpoints AS (
       INSERT INTO projector_checkpoints (consumer_group, topic, partition, next_offset, updated_at)
       SELECT ${param(group)}, ${param(topic)}, p, o, now()
         FROM unnest(${param([...next.keys()])}::int[], ${param([...next.values()].map(String))}::bigint[]) AS t(p, o)
       ON CONFLICT (consumer_group, topic, partition)
       DO UPDATE SET next_offset = GREATEST(projector_checkpoints.next_offset, EXCLUDED.next_offset), updated_at = now())`);
    }
    if (parts.length === 0) return;
    await tx.query(`WITH ${parts.join(',\n')}\nSELECT 1`, params);
  },
};

function stateRowOf(s: FailureState) {
  return {
    key_id: s.keyId,
    tenant: s.key.tenant,
    scope: s.key.scope,
    run: s.key.run,
    principal: s.key.principal,
    resource_id: s.key.resourceId,
    tool_name: s.key.equivalenceKey.tool_name,
    resource_class: s.key.equivalenceKey.resource_class,
    auth_scope: s.key.equivalenceKey.auth_scope,
    error_class: s.key.equivalenceKey.error_class,
    side_effect_boundary: s.key.equivalenceKey.side_effect_boundary,
    status: s.status,
    budget: s.budget,
    retry_count: s.retryCount,
    verifier_status: s.verifierStatus,
    state: s,
    version: s.version,
    updated_at: s.updatedAt,
  };
}

function outboxRowOf(e: OutboxEntry) {
  return { id: e.id, tenant: e.tenant, key_id: e.keyId, state_version: e.stateVersion };
}

/**
 * Large JSON bodies travel as one text parameter, joined by the ASCII record separator, and are split
 * in SQL: inside jsonb_to_recordset they would be parsed into a binary tree and printed back to text
 * before reaching their json column, and a text[] parameter costs an escaping pass on each side.
 * JSON.stringify never emits a raw U+001E (control characters are always escaped), so the split is exact.
 */
function jsonBodies(values: readonly unknown[]): string {
  return values.map((value) => JSON.stringify(value)).join(RECORD_SEPARATOR);
}

const RECORD_SEPARATOR = '\u001e';
const splitBodies = (placeholder: string) => `string_to_table(${placeholder}, E'\\x1e')`;
