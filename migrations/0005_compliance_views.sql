-- Compliance views: who was stopped, when, why and under which policy, readable with plain SQL.
-- security_invoker = true makes every read of a view run with the reader's privileges, so the
-- row-level security of the tables underneath applies to the reader (tokencircuit_audit with
-- tokencircuit.tenant set sees one tenant). Without it a view runs as its owner, the migrating
-- user, which FORCE RLS does not restrain when it is a superuser: the view would leak every tenant.
-- See docs/audit.md for example queries.
CREATE VIEW audit_interventions WITH (security_invoker = true) AS
SELECT i.seq,
       i.id AS intervention_id,
       i.issued_at AS stopped_at,
       i.tenant,
       i.agent,
       i.run,
       i.principal,
       i.level,
       i.failure_class,
       i.next_action,
       i.artifact ->> 'safety_justification' AS safety_justification,
       i.tool_name,
       i.resource_class,
       i.resource_id,
       i.auth_scope,
       (i.artifact ->> 'budget')::int AS budget,
       (i.artifact ->> 'retry_count')::int AS retry_count,
       (i.artifact ->> 'budget_exhausted')::boolean AS budget_exhausted,
       i.artifact ->> 'classification_reason' AS classification_reason,
       i.artifact ->> 'verifier_status' AS verifier_status,
       i.policy_version,
       i.state_version,
       i.key_id,
       i.causing_event_ids,
       i.hash
  FROM interventions i;
--> statement-breakpoint
COMMENT ON VIEW audit_interventions IS
  'Every intervention: who was stopped (tenant, agent, run, principal), when (stopped_at), why (failure_class, next_action, safety_justification) and under which policy_version. Reads run under the reader''s row-level security.';
--> statement-breakpoint
-- Current fleet-wide blocks: a principal stopped on a resource for every agent of the tenant, with
-- the latest intervention's justification. Fleet keys are the facts about a principal (permission,
-- invariant violations by default); blocked = budget 0, exhausted = budget used up.
CREATE VIEW audit_blocked_principals WITH (security_invoker = true) AS
SELECT f.tenant,
       f.principal,
       f.resource_class,
       f.resource_id,
       f.tool_name,
       f.auth_scope,
       f.error_class AS failure_class,
       f.status,
       f.budget,
       f.retry_count,
       (f.state ->> 'openedAt')::timestamptz AS blocked_since,
       f.updated_at,
       f.state ->> 'classificationReason' AS classification_reason,
       last_intervention.intervention_id AS last_intervention_id,
       last_intervention.next_action,
       last_intervention.safety_justification,
       last_intervention.policy_version,
       f.key_id,
       f.version AS state_version
  FROM failure_state f
  LEFT JOIN LATERAL (
        SELECT i.id AS intervention_id,
               i.next_action,
               i.artifact ->> 'safety_justification' AS safety_justification,
               i.policy_version
          FROM interventions i
         WHERE i.tenant = f.tenant AND i.key_id = f.key_id
         ORDER BY i.seq DESC
         LIMIT 1) AS last_intervention ON true
 WHERE f.scope = 'fleet' AND f.status IN ('blocked', 'exhausted');
--> statement-breakpoint
COMMENT ON VIEW audit_blocked_principals IS
  'Principals currently blocked fleet-wide on a resource (status blocked or exhausted), since when, and why. Reads run under the reader''s row-level security.';
--> statement-breakpoint
GRANT SELECT ON audit_interventions, audit_blocked_principals TO tokencircuit_audit;
