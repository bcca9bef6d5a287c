import { describe, expect, it } from 'vitest';
import type { InterventionData } from '@tokencircuit/contracts';
import { interventionRowOf, toInterventionContent, type NewIntervention } from './new-intervention.js';

const published: InterventionData = {
  interventionId: 'int-1',
  tenant: 'acme',
  run: 'run-9',
  agent: 'agent-2',
  keyId: 'fleet:acme:svc:sql_namespace:finance',
  level: 'block',
  nextAction: 'stop_request_authorization',
  backoff: null,
  artifact: {
    equivalence_key: {
      tool_name: 'sql.query',
      resource_class: 'sql_namespace',
      auth_scope: 'finance:read',
      error_class: 'permission',
      side_effect_boundary: false,
    },
    key_id: 'fleet:acme:svc:sql_namespace:finance',
    scope: 'fleet',
    tenant: 'acme',
    run: null,
    principal: 'svc',
    resource_id: 'finance',
    failure_class: 'permission',
    budget: 0,
    budget_exhausted: true,
    retry_count: 0,
    sample_receipts: ['permission denied for schema finance'],
    safety_justification: 'Denials do not change by retrying.',
    next_allowed_action: 'stop_request_authorization',
    verifier_required: null,
    verifier_status: 'not_required',
    side_effect_evidence: ['declared_effect:read'],
    classification_reason: 'sqlstate:42501',
    policy_version: 'sha256:p',
    state_version: 3,
    causing_event_ids: ['e-1'],
  },
  policyVersion: 'sha256:p',
  stateVersion: 3,
  causingEventIds: ['e-1'],
  issuedAt: '2026-05-06T07:08:09.010Z',
};

describe('interventionRowOf', () => {
  it('copies the key fields an auditor filters on out of the artifact', () => {
    expect(interventionRowOf(published)).toEqual({
      id: 'int-1',
      tenant: 'acme',
      run: 'run-9',
      agent: 'agent-2',
      level: 'block',
      failureClass: 'permission',
      keyId: 'fleet:acme:svc:sql_namespace:finance',
      toolName: 'sql.query',
      resourceClass: 'sql_namespace',
      authScope: 'finance:read',
      principal: 'svc',
      resourceId: 'finance',
      nextAction: 'stop_request_authorization',
      artifact: published.artifact,
      policyVersion: 'sha256:p',
      stateVersion: 3,
      causingEventIds: ['e-1'],
      issuedAt: '2026-05-06T07:08:09.010Z',
    });
  });
});

describe('toInterventionContent', () => {
  const row: NewIntervention = interventionRowOf(published);

  it('brings issued_at to UTC milliseconds, the precision JavaScript reads timestamptz back at', () => {
    expect(toInterventionContent({ ...row, issuedAt: '2026-05-06T09:08:09.010999+02:00' }).issuedAt).toBe(
      '2026-05-06T07:08:09.010Z',
    );
  });

  it('drops fields that are not columns, so nothing unhashed slips into the insert', () => {
    expect(toInterventionContent({ ...row, extra: 'x' } as NewIntervention)).not.toHaveProperty('extra');
  });

  it.each([
    ['an empty tenant', { tenant: '' }, 'tenant'],
    ['an unknown level', { level: 'shout' }, 'level'],
    ['an unknown failure class', { failureClass: 'cosmic_ray' }, 'failureClass'],
    ['a negative state version', { stateVersion: -1 }, 'stateVersion'],
    ['a timestamp without offset', { issuedAt: '2026-05-06T07:08:09' }, 'issuedAt'],
    ['an artifact that is not an object', { artifact: ['x'] }, 'artifact'],
  ])('refuses %s, naming the field', (_name, change, field) => {
    expect(() => toInterventionContent({ ...row, ...change } as unknown as NewIntervention)).toThrow(
      new RegExp(`Invalid intervention:[\\s\\S]*${field}`),
    );
  });

  it('refuses an artifact that has no canonical JSON form', () => {
    expect(() => toInterventionContent({ ...row, artifact: { when: new Date(0) } })).toThrow('$.when is a Date');
  });
});
