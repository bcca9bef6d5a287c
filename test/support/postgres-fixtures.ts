import type pg from 'pg';
import type { NewIntervention } from '@tokencircuit/storage';

/** A permission block for `tenant`, as the decision service would append it. */
export function interventionFixture(
  id: string,
  tenant: string,
  overrides: Partial<NewIntervention> = {},
): NewIntervention {
  return {
    id,
    tenant,
    run: `run-${id}`,
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
    artifact: {
      failure_class: 'permission',
      budget: 0,
      budget_exhausted: true,
      retry_count: 0,
      sample_receipts: ['permission denied for schema finance'],
      safety_justification: 'A denial is a fact about the principal; retrying cannot succeed.',
    },
    policyVersion: 'sha256:test-policy',
    stateVersion: 1,
    causingEventIds: [`evt-${id}`],
    issuedAt: '2026-03-04T05:06:07.089Z',
    ...overrides,
  };
}

/** One row of every tenant-scoped table for `tenant`, written by the connecting (writer) user. */
export async function seedTenantRows(pool: pg.Pool, tenant: string, suffix: string): Promise<void> {
  await pool.query(
    `INSERT INTO agent_events (id, tenant, run, type, occurred_at, cloud_event)
     VALUES ($1, $2, 'run-1', 'dev.tokencircuit.tool_call.outcome.v1', now(), '{}')`,
    [`evt-${suffix}`, tenant],
  );
  await pool.query(
    `INSERT INTO failure_state (key_id, tenant, scope, run, tool_name, error_class, side_effect_boundary, status,
                                budget, retry_count, verifier_status, state, version)
     VALUES ($1, $2, 'run', 'run-1', 'sql.query', 'transient', false, 'open', 2, 0, 'not_required', '{}', 1)`,
    [`key-${suffix}`, tenant],
  );
  await pool.query(
    `INSERT INTO decision_outbox (id, tenant, key_id, state_version, state_snapshot) VALUES ($1, $2, $3, 1, '{}')`,
    [`outbox-${suffix}`, tenant, `key-${suffix}`],
  );
}
