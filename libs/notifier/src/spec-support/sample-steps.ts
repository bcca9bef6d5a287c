import type { DiagnosticArtifact, EpisodeEventData } from '@tokencircuit/contracts';

const artifact: DiagnosticArtifact = {
  equivalence_key: {
    tool_name: 'sql.execute',
    resource_class: 'table',
    auth_scope: 'billing:write',
    error_class: 'permission',
    side_effect_boundary: false,
  },
  key_id: 'k-3f9a',
  scope: 'fleet',
  tenant: 'acme',
  run: 'run-7f3a',
  principal: 'svc-billing',
  resource_id: 'invoices',
  failure_class: 'permission',
  budget: 0,
  budget_exhausted: true,
  retry_count: 0,
  sample_receipts: ['permission denied for table invoices'],
  safety_justification: 'svc-billing was denied on invoices; permission failures never heal by retrying.',
  next_allowed_action: 'stop_request_authorization',
  verifier_required: null,
  verifier_status: 'not_required',
  side_effect_evidence: ['declared effect: write', 'refused before dispatch'],
  classification_reason: 'SQLSTATE 42501',
  policy_version: 'sha256:abc',
  state_version: 1,
  causing_event_ids: ['e-1'],
};

/** One episode's four steps as the decision service publishes them. */
export const triggered: EpisodeEventData = {
  eventId: '6f1d7a52-1c3e-5b8a-9d2f-0a4b6c8e1f30',
  transition: 'triggered',
  episodeId: '0c9e4b1a-2d3f-5e6a-8b7c-9d0e1f2a3b4c',
  episode: 1,
  tenant: 'acme',
  keyId: 'k-3f9a',
  scope: 'fleet',
  run: 'run-7f3a',
  agent: 'billing-agent',
  principal: 'svc-billing',
  tool: 'sql.execute',
  failureClass: 'permission',
  level: 'block',
  previousLevel: null,
  interventionId: 'a1b2c3d4-0000-5000-8000-000000000001',
  summary: artifact.safety_justification,
  actor: null,
  artifact,
  stateVersion: 1,
  openedAt: '2026-12-01T10:00:00.000Z',
  occurredAt: '2026-12-01T10:00:00.000Z',
};

export const escalated: EpisodeEventData = {
  ...triggered,
  eventId: '6f1d7a52-1c3e-5b8a-9d2f-0a4b6c8e1f31',
  transition: 'escalated',
  level: 'page',
  previousLevel: 'block',
  interventionId: 'a1b2c3d4-0000-5000-8000-000000000002',
  stateVersion: 2,
  occurredAt: '2026-12-01T10:01:00.000Z',
};

export const acknowledged: EpisodeEventData = {
  ...escalated,
  eventId: '6f1d7a52-1c3e-5b8a-9d2f-0a4b6c8e1f32',
  transition: 'acknowledged',
  previousLevel: null,
  interventionId: null,
  actor: { kind: 'operator', by: 'alice', reason: 'looking' },
  artifact: null,
  stateVersion: 2,
  occurredAt: '2026-12-01T10:02:00.000Z',
};

export const resolved: EpisodeEventData = {
  ...acknowledged,
  eventId: '6f1d7a52-1c3e-5b8a-9d2f-0a4b6c8e1f33',
  transition: 'resolved',
  actor: { kind: 'operator', by: 'alice', reason: 'grant fixed' },
  stateVersion: 3,
  occurredAt: '2026-12-01T10:05:00.000Z',
};
