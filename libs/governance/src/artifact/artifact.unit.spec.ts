import { DiagnosticArtifactSchema, InterventionDataSchema } from '@tokencircuit/contracts';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG, loadConfig } from '../config/load-config.js';
import { policyVersion } from '../config/policy-version.js';
import { decide } from '../decide/decide.js';
import { SpecAgent, Timeline } from '@tokencircuit/contracts/testing';
import { buildArtifact } from './build-artifact.js';
import { interventionFor } from './intervention.js';
import { uuidV5 } from './intervention-id.js';
import { createGovernance } from '../governance.js';

const governance = createGovernance(DEFAULT_CONFIG);

const timeline = new Timeline();
const agent = new SpecAgent(timeline, 'acme', 'analyst', 'run-1', {
  principal: 'svc-bot',
  resourceClass: 'sql_namespace',
  resourceId: 'finance.salaries',
  authScope: 'read:finance',
});
const q = agent.call('sql_query', { arguments: { sql: 'SELECT 1' } });
const events = [agent.failed(q, { httpStatus: 403, message: 'denied for user svc-bot password=hunter2' })];
const { states, outbox } = governance.replay(events);
const state = [...states.values()][0]!;

describe('buildArtifact', () => {
  const artifact = buildArtifact(state, decide(state, DEFAULT_CONFIG), DEFAULT_CONFIG);

  it('matches the DiagnosticArtifact contract with the raw key fields, not a hash', () => {
    expect(DiagnosticArtifactSchema.parse(artifact)).toEqual(artifact);
    expect(artifact.equivalence_key).toEqual({
      tool_name: 'sql_query',
      resource_class: 'sql_namespace',
      auth_scope: 'read:finance',
      error_class: 'permission',
      side_effect_boundary: false,
    });
    expect(artifact).toMatchObject({
      scope: 'fleet',
      principal: 'svc-bot',
      resource_id: 'finance.salaries',
      failure_class: 'permission',
      budget: 0,
      budget_exhausted: true,
      retry_count: 0,
      next_allowed_action: 'stop_request_authorization',
      policy_version: policyVersion(DEFAULT_CONFIG),
      causing_event_ids: [events[0]!.id],
    });
  });

  it('carries the receipt with the secret redacted', () => {
    expect(artifact.sample_receipts).toHaveLength(1);
    expect(artifact.sample_receipts[0]).toContain('403');
    expect(JSON.stringify(artifact)).not.toContain('hunter2');
  });

  it('says in plain words why it is unsafe to continue, with the facts', () => {
    expect(artifact.safety_justification).toMatch(/permission failure of sql_query/);
    expect(artifact.safety_justification).toMatch(/budget 0/);
    expect(artifact.safety_justification).toMatch(/until access is granted/);
  });

  it('is deeply frozen', () => {
    expect(Object.isFrozen(artifact)).toBe(true);
    expect(Object.isFrozen(artifact.equivalence_key)).toBe(true);
    expect(Object.isFrozen(artifact.sample_receipts)).toBe(true);
    expect(() => {
      (artifact.sample_receipts as string[]).push('x');
    }).toThrow(TypeError);
  });

  it('records which policy decided', () => {
    const strict = loadConfig({ classes: { transient: { budget: 0 } } });
    expect(buildArtifact(state, decide(state, strict), strict).policy_version).not.toBe(artifact.policy_version);
  });
});

describe('interventionFor', () => {
  const entry = outbox[0]!;

  it('builds a contract-valid intervention addressed to the agent that hit the failure', () => {
    const intervention = interventionFor(entry, DEFAULT_CONFIG, '2025-03-01T10:00:00.000Z')!;
    expect(InterventionDataSchema.parse(intervention)).toEqual(intervention);
    expect(intervention).toMatchObject({
      tenant: 'acme',
      run: 'run-1',
      agent: 'analyst',
      keyId: state.keyId,
      level: 'block',
      stateVersion: 1,
    });
  });

  it('derives a stable UUIDv5 id from the outbox id, so a republish is recognisable', () => {
    const a = interventionFor(entry, DEFAULT_CONFIG, '2025-03-01T10:00:00.000Z')!;
    const b = interventionFor(entry, DEFAULT_CONFIG, '2025-03-01T11:00:00.000Z')!;
    expect(a.interventionId).toBe(b.interventionId);
    expect(a.interventionId).toBe(uuidV5(entry.id));
    expect(a.interventionId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('refuses an issuedAt that is not a timestamp', () => {
    expect(() => interventionFor(entry, DEFAULT_CONFIG, 'yesterday')).toThrow(
      /issuedAt: "yesterday" is not an ISO-8601 timestamp/,
    );
  });
});

describe('uuidV5 (RFC 9562 §5.5)', () => {
  it('matches the well-known vector: DNS namespace, "www.example.com"', () => {
    expect(uuidV5('www.example.com', '6ba7b810-9dad-11d1-80b4-00c04fd430c8')).toBe(
      '2ed6657d-e927-568b-95e1-2665a8aea6a2',
    );
  });

  it('refuses a namespace that is not a UUID', () => {
    expect(() => uuidV5('x', 'not-a-uuid')).toThrow(/namespace/);
  });
});
