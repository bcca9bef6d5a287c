import type { InterventionData } from '../intervention.js';

// A block issued after RFC case 1 (permission denied, budget 0), as the decision service would publish it.

export const permissionBlock: InterventionData = {
  interventionId: 'int-acme-fleet-7c1d-v1',
  tenant: 'acme',
  run: 'run-7f3a',
  agent: 'billing-agent',
  keyId: 'fleet:acme:svc-billing:billing.invoices:sql.execute',
  level: 'block',
  nextAction: 'stop_request_authorization',
  backoff: null,
  artifact: {
    equivalence_key: {
      tool_name: 'sql.execute',
      resource_class: 'sql_namespace',
      auth_scope: 'billing:write',
      error_class: 'permission',
      side_effect_boundary: false,
    },
    key_id: 'fleet:acme:svc-billing:billing.invoices:sql.execute',
    scope: 'fleet',
    tenant: 'acme',
    run: null,
    principal: 'svc-billing',
    resource_id: 'billing.invoices',
    failure_class: 'permission',
    budget: 0,
    budget_exhausted: true,
    retry_count: 0,
    sample_receipts: ['42501 insufficient_privilege: permission denied for table payroll'],
    safety_justification:
      'Permission failures have budget 0: svc-billing is denied on billing.invoices for every run of the fleet until an operator grants the scope.',
    next_allowed_action: 'stop_request_authorization',
    verifier_required: null,
    verifier_status: 'not_required',
    side_effect_evidence: ['declared_effect:read', 'sql_statement:SELECT'],
    classification_reason: 'sqlstate:42501',
    policy_version: 'sha256:9f2c4e',
    state_version: 1,
    causing_event_ids: ['01J9Z3Q5V7M2K8D4R6T0W1X3Y6'],
  },
  policyVersion: 'sha256:9f2c4e',
  stateVersion: 1,
  causingEventIds: ['01J9Z3Q5V7M2K8D4R6T0W1X3Y6'],
  issuedAt: '2025-03-14T09:26:54.120Z',
};
