import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, json, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import type { FailureState } from '@tokencircuit/governance';

/**
 * The projected failure state, one row per state key. `state` holds the complete pure FailureState
 * (the core owns its shape and will extend it); the flat columns copy the fields that preflight
 * lookups and audit queries filter on, so they can be indexed.
 */
export const failureState = pgTable(
  'failure_state',
  {
    keyId: text('key_id').primaryKey(),
    tenant: text('tenant').notNull(),
    scope: text('scope').$type<'fleet' | 'run'>().notNull(),
    run: text('run'),
    principal: text('principal'),
    resourceId: text('resource_id'),
    toolName: text('tool_name').notNull(),
    resourceClass: text('resource_class'),
    authScope: text('auth_scope'),
    errorClass: text('error_class').notNull(),
    sideEffectBoundary: boolean('side_effect_boundary').notNull(),
    status: text('status').notNull(),
    budget: integer('budget').notNull(),
    retryCount: integer('retry_count').notNull(),
    verifierStatus: text('verifier_status').notNull(),
    state: json('state').$type<FailureState>().notNull(),
    version: integer('version').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    // Preflight for run-scoped keys: "has this run exhausted tool T?"
    index('failure_state_tenant_run_tool_idx').on(t.tenant, t.run, t.toolName),
    // Preflight for fleet-scoped keys: "is principal P blocked on resource R?"
    index('failure_state_tenant_principal_resource_idx').on(t.tenant, t.principal, t.resourceClass, t.resourceId),
    // The projector's and preflight's "fleet keys of principal P" (of resource R: the candidate load): without the
    // predicate a busy principal's many run-scoped rows were read and thrown away on every lookup; without the
    // resource id, every fleet key of the principal was, for each resource a chunk names (migration 0054).
    index('failure_state_fleet_principal_resource_idx')
      .on(t.tenant, t.principal, t.resourceId)
      .where(sql`${t.scope} = 'fleet'`),
    // GET /v1/state: a tenant's states, newest change first, keyset-paged.
    index('failure_state_tenant_updated_idx').on(t.tenant, t.updatedAt.desc(), t.keyId.desc()),
    check('failure_state_tenant_not_empty', sql`${t.tenant} <> ''`),
    check('failure_state_scope_known', sql`${t.scope} in ('fleet', 'run')`),
    check('failure_state_counts_not_negative', sql`${t.budget} >= 0 and ${t.retryCount} >= 0 and ${t.version} >= 0`),
  ],
);

export type FailureStateRow = typeof failureState.$inferSelect;
export type NewFailureStateRow = typeof failureState.$inferInsert;
