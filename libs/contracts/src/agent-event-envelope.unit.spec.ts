import { describe, expect, it } from 'vitest';
import {
  agentEventToCloudEvent,
  ceTypeOf,
  cloudEventToAgentEvent,
  cloudEventToIntervention,
  ContractError,
  INTERVENTION_CE_TYPE,
  interventionToCloudEvent,
  parseAgentEvent,
} from './agent-event-envelope.js';
import { CloudEventSchema, type CloudEvent } from './cloud-event.js';
import { operatorGranted, permissionDenied, readAfterWriteVerified } from './spec-support/sample-events.js';
import { permissionBlock } from './spec-support/sample-intervention.js';
import { thrown } from './spec-support/thrown.js';

const TRACEPARENT = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
const denied = parseAgentEvent(permissionDenied);

describe('agent event → CloudEvent', () => {
  it('carries tenant and run as extensions and the version in the type', () => {
    const ce = agentEventToCloudEvent(denied, TRACEPARENT);
    expect(ce).toEqual({
      specversion: '1.0',
      id: permissionDenied.id,
      source: '/tenants/acme/agents/billing-agent',
      type: 'dev.tokencircuit.tool_call.outcome.v3',
      time: permissionDenied.time,
      datacontenttype: 'application/json',
      tenantid: 'acme',
      runid: 'run-7f3a',
      traceparent: TRACEPARENT,
      data: denied.data,
    });
    expect(CloudEventSchema.safeParse(ce).success).toBe(true);
  });

  it('leaves traceparent out when there is none', () => {
    expect(agentEventToCloudEvent(denied)).not.toHaveProperty('traceparent');
  });

  it('gives a verifier result the agent as source and the run as runid', () => {
    const ce = agentEventToCloudEvent(parseAgentEvent(readAfterWriteVerified));
    expect(ce).toMatchObject({ source: '/tenants/acme/agents/orders-agent', runid: 'run-5b2d' });
  });

  it('gives an operator resolution no run: it is a fleet fact', () => {
    const ce = agentEventToCloudEvent(parseAgentEvent(operatorGranted));
    expect(ce.source).toBe('/tenants/acme/operators/oncall-jane');
    expect(ce).not.toHaveProperty('runid');
  });
});

describe('CloudEvent → agent event', () => {
  const ce = agentEventToCloudEvent(denied, TRACEPARENT);
  const rejection = (input: CloudEvent) => thrown(ContractError, () => cloudEventToAgentEvent(input));

  it('gives back the event it came from', () => {
    expect(cloudEventToAgentEvent(ce)).toEqual(denied);
  });

  it.each([['com.example.order.created.v1'], ['dev.tokencircuit.tool_call.retried.v1'], ['dev.tokencircuit.']])(
    'refuses the unknown type %s',
    (type) => {
      const error = rejection({ ...ce, type });
      expect(error).toMatchObject({ code: 'unknown_type', field: 'type' });
      expect(error.message).toContain(type);
    },
  );

  it('refuses a newer version of a known type, saying which versions it accepts', () => {
    const error = rejection({ ...ce, type: 'dev.tokencircuit.tool_call.outcome.v4' });
    expect(error).toMatchObject({ code: 'unsupported_version', field: 'type' });
    expect(error.message).toBe('unsupported version "v4" of tool_call.outcome; this build accepts v3, v2, v1');
  });

  it('reads a v3 outcome with its result digest', () => {
    const resultDigest = `sha256:${'ab'.repeat(32)}`;
    const data = { ...permissionDenied.data, status: 'succeeded', error: null, resultDigest };
    const event = cloudEventToAgentEvent({ ...ce, data });
    if (event.type !== 'tool_call.outcome') throw new Error(`parsed as ${event.type}`);
    expect(event.data.resultDigest).toBe(resultDigest);
    expect(rejection({ ...ce, data: { ...data, resultDigest: 'md5:abc' } })).toMatchObject({
      code: 'invalid_field',
      field: 'data.resultDigest',
    });
  });

  it('reads a v2 outcome as v3 with no digest, even when its producer put one there', () => {
    const data = { ...permissionDenied.data, resultDigest: `sha256:${'ab'.repeat(32)}` };
    for (const v2 of [
      { ...ce, type: 'dev.tokencircuit.tool_call.outcome.v2' },
      { ...ce, type: 'dev.tokencircuit.tool_call.outcome.v2', data },
    ]) {
      const event = cloudEventToAgentEvent(v2);
      expect(event).toEqual(denied);
      if (event.type !== 'tool_call.outcome') throw new Error(`parsed as ${event.type}`);
      expect(event.data.resultDigest).toBeNull();
    }
  });

  it('reads a v1 outcome and converts it to v2: what v1 could not say is "not known"', () => {
    const v1 = { ...ce, type: 'dev.tokencircuit.tool_call.outcome.v1', data: permissionDenied.data };
    const event = cloudEventToAgentEvent(v1);
    expect(event).toEqual(denied);
    if (event.type !== 'tool_call.outcome') throw new Error(`parsed as ${event.type}`);
    expect(event.data).toMatchObject({ provider: null, previousAttempt: null, transaction: null, preconditions: [] });
    expect(event.data.error).toMatchObject({ code: null, details: [] });
  });

  it('reads a v1 outcome as v1: fields only v2 defines are not taken from it', () => {
    const data = {
      ...permissionDenied.data,
      provider: 'postgres',
      previousAttempt: 'unknown',
      error: { ...permissionDenied.data.error, code: '42501' },
    };
    const event = cloudEventToAgentEvent({ ...ce, type: 'dev.tokencircuit.tool_call.outcome.v1', data });
    if (event.type !== 'tool_call.outcome') throw new Error(`parsed as ${event.type}`);
    expect(event.data).toMatchObject({ provider: null, previousAttempt: null, error: { code: null } });
  });

  it('names the data field at fault in a v1 outcome', () => {
    const data = { ...permissionDenied.data, call: { ...permissionDenied.data.call, attempt: 0 } };
    expect(rejection({ ...ce, type: 'dev.tokencircuit.tool_call.outcome.v1', data })).toMatchObject({
      code: 'invalid_field',
      field: 'data.call.attempt',
    });
  });

  it('reads the v2 context of an outcome, provider and protocol in lower case', () => {
    const data = {
      ...permissionDenied.data,
      provider: 'PostgreSQL',
      protocol: 'sql',
      previousAttempt: 'unknown',
      identifierChosenBy: 'caller',
      transaction: { mode: 'explicit', aborted: true },
      preconditions: ['if_match'],
      error: {
        ...permissionDenied.data.error,
        code: '42501',
        details: [{ reason: 'ACCESS_DENIED', domain: 'example.com' }],
      },
    };
    const event = cloudEventToAgentEvent({ ...ce, data });
    if (event.type !== 'tool_call.outcome') throw new Error(`parsed as ${event.type}`);
    expect(event.data).toMatchObject({
      provider: 'postgresql',
      protocol: 'sql',
      previousAttempt: 'unknown',
      identifierChosenBy: 'caller',
      transaction: { mode: 'explicit', aborted: true },
      preconditions: ['if_match'],
      error: { code: '42501', details: [{ reason: 'ACCESS_DENIED', domain: 'example.com', type: null, code: null }] },
    });
  });

  it('refuses a provider that is not a token', () => {
    const data = { ...permissionDenied.data, provider: 'post gres; drop' };
    expect(rejection({ ...ce, data })).toMatchObject({ code: 'invalid_field', field: 'data.provider' });
  });

  it('refuses an event without the tenantid extension, naming the attribute', () => {
    const { tenantid: _, ...withoutTenant } = ce;
    expect(rejection(withoutTenant)).toMatchObject({ code: 'invalid_field', field: 'tenantid' });
  });

  it('names tenantid, not the internal tenant field, when its value is bad', () => {
    expect(rejection({ ...ce, tenantid: '' })).toMatchObject({ code: 'invalid_field', field: 'tenantid' });
  });

  it('refuses a runid that disagrees with the run in the data, so routing and state cannot diverge', () => {
    const error = rejection({ ...ce, runid: 'run-other' });
    expect(error).toMatchObject({ code: 'invalid_field', field: 'runid' });
    expect(error.message).toContain('run-7f3a');
  });

  it('names the data field at fault', () => {
    if (denied.type !== 'tool_call.outcome') throw new Error(`sample parsed as ${denied.type}`);
    const data = { ...denied.data, call: { ...denied.data.call, attempt: -1 } };
    expect(rejection({ ...ce, data })).toMatchObject({ code: 'invalid_field', field: 'data.call.attempt' });
  });

  it('refuses an event without data', () => {
    const { data: _, ...withoutData } = ce;
    expect(rejection(withoutData)).toMatchObject({ code: 'invalid_field', field: 'data' });
  });

  it('maps every type it emits back to the same type', () => {
    expect(ceTypeOf('verifier.result')).toBe('dev.tokencircuit.verifier.result.v2');
    expect(ceTypeOf('operator.resolution')).toBe('dev.tokencircuit.operator.resolution.v1');
  });
});

describe('verifier.result v1 → v2 (the mapping docs/schemas/README.md documents)', () => {
  const rejection = (input: CloudEvent) => thrown(ContractError, () => cloudEventToAgentEvent(input));
  const verified = parseAgentEvent(readAfterWriteVerified);
  const ce = agentEventToCloudEvent(verified);
  const base = { agent: 'orders-agent', run: 'run-5b2d', callId: 'call-0003', tool: 'http.post', detail: 'read back' };
  const v1 = (data: object) => ({ ...ce, type: 'dev.tokencircuit.verifier.result.v1', data: { ...base, ...data } });
  const findingOf = (data: object): unknown => {
    const fromKafka = cloudEventToAgentEvent(v1(data));
    // The JSON form (HTTP ingest, CLI) names no version: v1 is recognised by `passed` without `finding`.
    const fromJson = parseAgentEvent({
      type: 'verifier.result',
      id: 'v',
      tenant: 'acme',
      time: ce.time,
      data: { ...base, ...data },
    });
    expect(fromJson.data).toEqual(fromKafka.data);
    return fromKafka.data;
  };

  it('emits v2 with the finding and nothing of v1', () => {
    expect(ce.type).toBe('dev.tokencircuit.verifier.result.v2');
    expect(ce.data).toMatchObject({ finding: 'refuted', resolved: { emptyCause: null, resolvedResourceId: null } });
    expect(ce.data).not.toHaveProperty('passed');
    expect(cloudEventToAgentEvent(ce)).toEqual(verified);
  });

  it.each([
    ['read_after_write', { passed: false, resolved: { effectApplied: true } }, 'inconclusive'],
    ['read_after_write', { passed: true, resolved: { effectApplied: true } }, 'confirmed'],
    ['read_after_write', { passed: true, resolved: { effectApplied: false } }, 'refuted'],
    ['read_after_write', { passed: true }, 'inconclusive'],
    ['empty_result', { passed: true, resolved: { emptyIsValid: true } }, 'confirmed'],
    ['empty_result', { passed: true, resolved: { emptyIsValid: false } }, 'refuted'],
    ['empty_result', { passed: true, resolved: {} }, 'inconclusive'],
    ['empty_result', { passed: false, resolved: { emptyIsValid: false } }, 'inconclusive'],
    ['resource_resolution', { passed: true }, 'confirmed'],
    ['resource_resolution', { passed: false }, 'inconclusive'],
    ['same_verifier', { passed: true }, 'confirmed'],
    ['same_verifier', { passed: false }, 'inconclusive'],
  ])('%s %j → %s', (verifier, data, finding) => {
    expect(findingOf({ verifier, ...data })).toMatchObject({ finding });
  });

  it('keeps what refines the finding, and only where it means something', () => {
    expect(
      findingOf({
        verifier: 'empty_result',
        passed: true,
        resolved: { emptyIsValid: false, emptyCause: 'target_absent' },
      }),
    ).toMatchObject({ finding: 'refuted', resolved: { emptyCause: 'target_absent', resolvedResourceId: null } });
    expect(
      findingOf({
        verifier: 'empty_result',
        passed: true,
        resolved: { emptyIsValid: true, emptyCause: 'target_absent' },
      }),
    ).toMatchObject({ finding: 'confirmed', resolved: { emptyCause: null } });
    expect(
      findingOf({ verifier: 'resource_resolution', passed: true, resolved: { resolvedResourceId: 'orders_2026' } }),
    ).toMatchObject({ finding: 'confirmed', resolved: { resolvedResourceId: 'orders_2026' }, detail: 'read back' });
  });

  it('reads a v1 CloudEvent as v1 even when it carries a finding, and names v1 fields at fault', () => {
    expect(
      cloudEventToAgentEvent(v1({ verifier: 'same_verifier', passed: false, finding: 'confirmed' })).data,
    ).toMatchObject({ finding: 'inconclusive' });
    expect(rejection(v1({ verifier: 'same_verifier', passed: 'yes' }))).toMatchObject({ field: 'data.passed' });
  });

  it('refuses v2 data without a finding: a v2 CloudEvent is never read as v1', () => {
    const { finding: _, ...data } = ce.data as { finding: string };
    expect(rejection({ ...ce, data: { ...data, passed: true } })).toMatchObject({
      code: 'invalid_field',
      field: 'data.finding',
    });
  });
});

describe('intervention ↔ CloudEvent', () => {
  it('uses the intervention id as the CloudEvent id, so subscribers dedupe redeliveries', () => {
    const ce = interventionToCloudEvent(permissionBlock, TRACEPARENT);
    expect(ce).toMatchObject({
      id: permissionBlock.interventionId,
      type: INTERVENTION_CE_TYPE,
      source: '/tenants/acme/tokencircuit/decision',
      subject: permissionBlock.keyId,
      tenantid: 'acme',
      runid: 'run-7f3a',
      traceparent: TRACEPARENT,
    });
    expect(cloudEventToIntervention(ce)).toEqual(permissionBlock);
  });

  it('leaves runid out of a fleet intervention without a run', () => {
    expect(interventionToCloudEvent({ ...permissionBlock, run: null })).not.toHaveProperty('runid');
  });

  it('refuses an agent event offered as an intervention', () => {
    const error = thrown(ContractError, () => cloudEventToIntervention(agentEventToCloudEvent(denied)));
    expect(error).toMatchObject({ code: 'unknown_type', field: 'type' });
  });

  it('names the artifact field at fault', () => {
    const ce = interventionToCloudEvent({ ...permissionBlock, artifact: { ...permissionBlock.artifact, budget: -1 } });
    expect(thrown(ContractError, () => cloudEventToIntervention(ce))).toMatchObject({
      code: 'invalid_field',
      field: 'data.artifact.budget',
    });
  });
});
