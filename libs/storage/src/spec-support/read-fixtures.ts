import type pg from 'pg';
import { appendInterventions as appendBatch } from '../append-interventions.js';
import type { NewIntervention } from '../new-intervention.js';
import { pgDatabase, pgSession, type SqlSession } from '../sql-database.js';
import type { NewAgentEventRow } from '../tables/agent-events.js';
import type { NewFailureStateRow } from '../tables/failure-state.js';
import { withTenant } from '../with-tenant.js';

// Rows for the read operations' integration specs, written as the connecting (writer) user, and a reader that
// runs under the tenant's row-level security the way the API does.

/** Runs `work` in a read-only session that sees only `tenant`'s rows. */
export const readAs = <T>(pool: pg.Pool, tenant: string, work: (session: SqlSession) => Promise<T>): Promise<T> =>
  withTenant(pool, tenant, (client) => work(pgSession(client)));

/** A permission block for `tenant`, as the decision service would append it. */
export function interventionFor(tenant: string, id: string, overrides: Partial<NewIntervention> = {}): NewIntervention {
  return {
    id,
    tenant,
    run: 'run-1',
    agent: 'agent-1',
    level: 'block',
    failureClass: 'permission',
    keyId: `fleet:${tenant}:svc-reporting:sql_namespace:finance`,
    toolName: 'sql.query',
    resourceClass: 'sql_namespace',
    authScope: 'finance:read',
    principal: 'svc-reporting',
    resourceId: 'finance',
    nextAction: 'stop_request_authorization',
    artifact: { failure_class: 'permission', safety_justification: 'A denial is a fact about the principal.' },
    policyVersion: 'sha256:test-policy',
    stateVersion: 1,
    causingEventIds: [`evt-${id}`],
    issuedAt: '2026-03-04T05:06:07.089Z',
    ...overrides,
  };
}

/** Appends interventions in the order given (each tenant's hash chain grows in that order). */
export async function appendInterventions(pool: pg.Pool, rows: readonly NewIntervention[]): Promise<void> {
  const db = pgDatabase(pool);
  for (const row of rows) await db.transaction((tx) => appendBatch(tx, [row]));
}

type FailureStateSeed = Pick<NewFailureStateRow, 'keyId' | 'tenant'> & Partial<NewFailureStateRow>;

/** One failure_state row; unset columns are an open run-scoped key of run-1 and sql.query. */
export async function insertFailureState(pool: pg.Pool, seed: FailureStateSeed): Promise<void> {
  const row: NewFailureStateRow = {
    scope: 'run',
    run: 'run-1',
    principal: null,
    resourceId: null,
    toolName: 'sql.query',
    resourceClass: null,
    authScope: null,
    errorClass: 'transient',
    sideEffectBoundary: false,
    status: 'open',
    budget: 2,
    retryCount: 0,
    verifierStatus: 'not_required',
    state: { keyId: seed.keyId } as unknown as NewFailureStateRow['state'],
    version: 1,
    updatedAt: new Date('2026-03-04T05:06:07.089Z'),
    ...seed,
  };
  await pool.query(
    `INSERT INTO failure_state (key_id, tenant, scope, run, principal, resource_id, tool_name, resource_class, auth_scope,
       error_class, side_effect_boundary, status, budget, retry_count, verifier_status, state, version, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18)`,
    [
      row.keyId,
      row.tenant,
      row.scope,
      row.run,
      row.principal,
      row.resourceId,
      row.toolName,
      row.resourceClass,
      row.authScope,
      row.errorClass,
      row.sideEffectBoundary,
      row.status,
      row.budget,
      row.retryCount,
      row.verifierStatus,
      JSON.stringify(row.state),
      row.version,
      row.updatedAt,
    ],
  );
}

type AgentEventSeed = Pick<NewAgentEventRow, 'id' | 'tenant'> & Partial<NewAgentEventRow>;

/** One agent_events row; unset columns are an outcome of run-1 that arrived over HTTP (no Kafka position). */
export async function insertAgentEvent(pool: pg.Pool, seed: AgentEventSeed): Promise<void> {
  const row = {
    run: 'run-1',
    agent: 'agent-1',
    type: 'dev.tokencircuit.tool_call.outcome.v1',
    occurredAt: new Date('2026-03-04T05:06:00.000Z'),
    cloudEvent: { id: seed.id, data: { n: seed.id } },
    kafkaTopic: null,
    kafkaPartition: null,
    kafkaOffset: null,
    ...seed,
  };
  await pool.query(
    `INSERT INTO agent_events (id, tenant, run, agent, type, occurred_at, cloud_event, kafka_topic, kafka_partition,
       kafka_offset)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
    [
      row.id,
      row.tenant,
      row.run,
      row.agent,
      row.type,
      row.occurredAt,
      JSON.stringify(row.cloudEvent),
      row.kafkaTopic,
      row.kafkaPartition,
      row.kafkaOffset === null ? null : String(row.kafkaOffset),
    ],
  );
}
