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

/**
 * A page as issue 27 found it: a refund POST timed out after it was sent, and the engine's justification
 * runs to hundreds of characters of facts. The arguments say which refund.
 */
export const refundPage: EpisodeEventData = {
  ...triggered,
  eventId: '6f1d7a52-1c3e-5b8a-9d2f-0a4b6c8e1f40',
  episodeId: '0c9e4b1a-2d3f-5e6a-8b7c-9d0e1f2a3b50',
  keyId: 'k-refund-77',
  scope: 'run',
  run: 'run-refunds-9',
  agent: 'support-agent',
  principal: 'svc-payments',
  tool: 'payments.refund',
  failureClass: 'ambiguous_effect',
  level: 'page',
  summary:
    'class=ambiguous_effect status=awaiting_verification seb=1 retries=0/1 verifier=read_after_write:failed ' +
    'evidence=[declared_effect:write, dispatch:request_sent, dispatch:no_response, outcome:unknown] ' +
    'Status unknown rather than failed: read-after-write verification could not establish whether the write happened. A human must reconcile.',
  artifact: {
    ...artifact,
    equivalence_key: {
      tool_name: 'payments.refund',
      resource_class: 'api_endpoint',
      auth_scope: 'refunds:write',
      error_class: 'ambiguous_effect',
      side_effect_boundary: true,
    },
    key_id: 'k-refund-77',
    scope: 'run',
    run: 'run-refunds-9',
    principal: 'svc-payments',
    resource_id: 'payments-api:/v1/refunds',
    failure_class: 'ambiguous_effect',
    budget: 1,
    budget_exhausted: false,
    sample_receipts: ['ETIMEDOUT socket timeout after 30000 ms (request body fully sent)'],
    next_allowed_action: 'reconcile_before_retry',
    verifier_required: 'read_after_write',
    verifier_status: 'failed',
    side_effect_evidence: ['declared_effect:write', 'dispatch:request_sent', 'outcome:unknown'],
    classification_reason: 'timeout after the request was sent',
  },
};

/** The refund call's arguments, with a secret the notification must never show. */
export const refundArguments = {
  amount_cents: 4999,
  currency: 'EUR',
  charge_id: 'ch_3PqK8a2eZvKYlo2C1x0',
  order_id: 'ord_20261201_0042',
  api_key: 'sk_live_51HxAbCdEfGhIjKlMnOpQrStUv',
  note: 'duplicate charge reported by customer c-42',
};
