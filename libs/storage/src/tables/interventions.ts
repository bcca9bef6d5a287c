import { sql } from 'drizzle-orm';
import { bigserial, check, index, integer, jsonb, pgTable, text, timestamp, unique } from 'drizzle-orm/pg-core';
import type { DiagnosticArtifact } from '@tokencircuit/contracts';

/**
 * The audit trail: append-only (UPDATE, DELETE and TRUNCATE are refused by triggers in the custom
 * migration) and hash-chained per tenant (see hash-chain.ts). Rows are written only through
 * appendInterventions(), which serialises appends per tenant.
 */
export const interventions = pgTable(
  'interventions',
  {
    /** Global insertion order; within a tenant it is also the chain order. */
    seq: bigserial('seq', { mode: 'number' }).primaryKey(),
    /** The stable intervention id subscribers dedupe on; republishing the same id is a no-op. */
    id: text('id').notNull().unique('interventions_id_key'),
    tenant: text('tenant').notNull(),
    run: text('run'),
    agent: text('agent'),
    level: text('level').notNull(),
    failureClass: text('failure_class').notNull(),
    keyId: text('key_id').notNull(),
    toolName: text('tool_name').notNull(),
    resourceClass: text('resource_class'),
    authScope: text('auth_scope'),
    principal: text('principal'),
    resourceId: text('resource_id'),
    nextAction: text('next_action').notNull(),
    artifact: jsonb('artifact').$type<DiagnosticArtifact>().notNull(),
    policyVersion: text('policy_version').notNull(),
    stateVersion: integer('state_version').notNull(),
    causingEventIds: text('causing_event_ids').array().notNull(),
    /** null for the first (genesis) row of a tenant. */
    prevHash: text('prev_hash'),
    hash: text('hash').notNull(),
    issuedAt: timestamp('issued_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [
    // A tenant's chain cannot fork: at most one row follows any hash, and one genesis row (NULLS NOT DISTINCT).
    unique('interventions_tenant_prev_hash_key').on(t.tenant, t.prevHash).nullsNotDistinct(),
    // appendInterventions reads the tenant's chain head through this one.
    index('interventions_tenant_seq_idx').on(t.tenant, t.seq),
    index('interventions_tenant_issued_at_idx').on(t.tenant, t.issuedAt),
    index('interventions_tenant_failure_class_issued_at_idx').on(t.tenant, t.failureClass, t.issuedAt),
    index('interventions_tenant_tool_name_issued_at_idx').on(t.tenant, t.toolName, t.issuedAt),
    index('interventions_tenant_principal_issued_at_idx').on(t.tenant, t.principal, t.issuedAt),
    index('interventions_tenant_run_idx').on(t.tenant, t.run),
    // The dashboard's held keys: each key's latest intervention and count.
    index('interventions_tenant_key_id_seq_idx').on(t.tenant, t.keyId, t.seq),
    check('interventions_tenant_not_empty', sql`${t.tenant} <> ''`),
    check('interventions_hash_is_sha256_hex', sql`${t.hash} ~ '^[0-9a-f]{64}$'`),
  ],
);

export type InterventionRow = typeof interventions.$inferSelect;
