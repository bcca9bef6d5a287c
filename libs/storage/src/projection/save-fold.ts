import type { FailureState, OutboxEntry } from '@tokencircuit/governance';
import type { SqlSession } from '../sql-database.js';
import { jsonBodies, splitBodies } from './json-bodies.js';

/** What a chunk writes once folded; the checkpoint moves in the same statement as the state. */
export interface FoldWrites {
  readonly states: readonly FailureState[];
  readonly outbox: readonly OutboxEntry[];
  /** Next offset per partition; a checkpoint only ever moves forward (GREATEST). */
  readonly checkpoints: { readonly group: string; readonly topic: string; readonly next: ReadonlyMap<number, bigint> };
}

/**
 * Everything a chunk writes after its fold, in one statement (one round trip): the changed states,
 * the outbox rows and the checkpoint, as data-modifying CTEs of the caller's transaction.
 */
export async function saveFold(tx: SqlSession, fold: FoldWrites): Promise<void> {
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
}

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
