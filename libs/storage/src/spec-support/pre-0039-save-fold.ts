import type { FailureState, OutboxEntry } from '@tokencircuit/governance';
import type { SqlSession } from '../sql-database.js';

/**
 * What the projector's save wrote before migration 0039, for specs that fill a database the way an older
 * build did: the changed states, and every transition with a copy of its state (state_snapshot never null).
 */
export async function savePre0039Fold(
  tx: SqlSession,
  fold: { readonly states: readonly FailureState[]; readonly outbox: readonly OutboxEntry[] },
): Promise<void> {
  const states = fold.states.map((s) => ({
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
  }));
  await tx.query(
    `INSERT INTO failure_state (key_id, tenant, scope, run, principal, resource_id, tool_name, resource_class,
            auth_scope, error_class, side_effect_boundary, status, budget, retry_count, verifier_status, state,
            version, updated_at)
     SELECT * FROM json_to_recordset($1::json) AS r(key_id text, tenant text, scope text, run text, principal text,
            resource_id text, tool_name text, resource_class text, auth_scope text, error_class text,
            side_effect_boundary boolean, status text, budget int, retry_count int, verifier_status text, state json,
            version int, updated_at timestamptz)
     ON CONFLICT (key_id) DO UPDATE SET status = EXCLUDED.status, budget = EXCLUDED.budget,
            retry_count = EXCLUDED.retry_count, verifier_status = EXCLUDED.verifier_status,
            state = EXCLUDED.state, version = EXCLUDED.version, updated_at = EXCLUDED.updated_at`,
    [JSON.stringify(states)],
  );
  await tx.query(
    `INSERT INTO decision_outbox (id, tenant, key_id, state_version, state_snapshot)
     SELECT * FROM json_to_recordset($1::json) AS m(id text, tenant text, key_id text, state_version int, snapshot json)
     ON CONFLICT (id) DO NOTHING`,
    [
      JSON.stringify(
        fold.outbox.map((e) => ({
          id: e.id,
          tenant: e.tenant,
          key_id: e.keyId,
          state_version: e.stateVersion,
          snapshot: e.snapshot,
        })),
      ),
    ],
  );
}
