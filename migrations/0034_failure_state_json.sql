-- The projector reads a chunk's candidate states whole and writes each changed one back whole, on every
-- chunk: as jsonb, Postgres built a binary tree from the text on every upsert and printed it back to text
-- on every load (jsonb_out was a third of the load's time: 5.6 against 3.3 ms for a chunk's 115 states in
-- pgbench). json keeps the text as written, validated only, as agent_events.cloud_event and
-- decision_outbox.state_snapshot already do (0007). The few reads inside it (->>, -> with an index) work
-- on json alike; nothing indexes or compares the column. The one view over it (0005) is dropped and
-- created again, unchanged, with its grant: a column a view uses cannot change type.
DROP VIEW audit_blocked_principals;
--> statement-breakpoint
ALTER TABLE "failure_state" ALTER COLUMN "state" SET DATA TYPE json;
--> statement-breakpoint
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
GRANT SELECT ON audit_blocked_principals TO tokencircuit_audit;
