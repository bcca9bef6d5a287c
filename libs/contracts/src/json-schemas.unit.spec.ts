import fc from 'fast-check';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { agentEventToCloudEvent, interventionToCloudEvent, parseAgentEvent } from './agent-event-envelope.js';
import { AgentEventSchema, type AgentEventType } from './agent-events.js';
import { DiagnosticArtifactSchema, InterventionDataSchema } from './intervention.js';
import { contractJsonSchemas } from './json-schemas.js';
import { LIMITS } from './limits.js';
import { corruptOneNode } from './spec-support/corruption.js';
import { validatorsFor } from './spec-support/ajv.js';
import { agentEventInput } from './spec-support/arbitraries.js';
import {
  permissionDenied,
  requestedInsert,
  SAMPLE_EVENTS,
  transientUnavailable,
} from './spec-support/sample-events.js';
import { permissionBlock } from './spec-support/sample-intervention.js';

const schemaDir = new URL('../../../docs/schemas/', import.meta.url);
const generated = contractJsonSchemas();
const validator = validatorsFor(generated);

const fileOf: Record<AgentEventType, string> = {
  'tool_call.requested': 'tool-call-requested.schema.json',
  'tool_call.outcome': 'tool-call-outcome.schema.json',
  'verifier.result': 'verifier-result.schema.json',
  'operator.resolution': 'operator-resolution.schema.json',
};

const zodAccepts = (input: unknown) => AgentEventSchema.safeParse(input).success;
const schemaAccepts = (input: unknown) => validator('agent-event.schema.json')(input) === true;

describe('checked-in JSON Schemas (docs/schemas)', () => {
  it.each(generated.map((s) => [s.fileName, s] as const))('%s matches the zod contract', (fileName, { schema }) => {
    const onDisk: unknown = JSON.parse(readFileSync(new URL(fileName, schemaDir), 'utf8'));
    expect(onDisk, `docs/schemas/${fileName} is stale: run npm run generate:schemas`).toEqual(schema);
  });

  it('holds no schema the contracts no longer generate', () => {
    const onDisk = readdirSync(schemaDir).filter((f) => f.endsWith('.schema.json'));
    // policy.schema.json is the core's (libs/governance policy-json-schema.unit.spec.ts checks it), and
    // notify-config.schema.json the notifier's (libs/notifier notify-config-json-schema.unit.spec.ts), and
    // mcp-gateway-config.schema.json the MCP gateway's (libs/mcp-gateway gateway-config-json-schema.unit.spec.ts).
    expect(onDisk.sort(), 'stale files in docs/schemas: run npm run generate:schemas').toEqual(
      [
        ...generated.map((s) => s.fileName),
        'policy.schema.json',
        'notify-config.schema.json',
        'mcp-gateway-config.schema.json',
      ].sort(),
    );
  });

  it('are written for producers: a defaulted field is optional', () => {
    const outcome = generated.find((s) => s.fileName === 'tool-call-outcome.schema.json')!.schema as any;
    expect(outcome.properties.data.required).toEqual(['call', 'status']);
    expect(outcome.properties.data.properties.durationMs.default).toBeNull();
  });
});

describe('zod and the generated JSON Schemas agree', () => {
  it.each(SAMPLE_EVENTS.map((e) => [`${e.type} ${e.id}`, e] as const))('on the realistic event %s', (_, sample) => {
    expect(schemaAccepts(sample)).toBe(true);
    expect(validator(fileOf[sample.type])(sample)).toBe(true);
    expect(zodAccepts(sample)).toBe(true);
  });

  it('on the normalised event zod hands out (defaults filled in)', () => {
    for (const sample of SAMPLE_EVENTS) expect(schemaAccepts(parseAgentEvent(sample))).toBe(true);
  });

  it('on a realistic intervention, its artifact, and the CloudEvents that carry them', () => {
    expect(InterventionDataSchema.safeParse(permissionBlock).success).toBe(true);
    expect(validator('intervention.schema.json')(permissionBlock)).toBe(true);
    expect(validator('diagnostic-artifact.schema.json')(permissionBlock.artifact)).toBe(true);
    expect(validator('cloud-event.schema.json')(interventionToCloudEvent(permissionBlock))).toBe(true);
    expect(validator('cloud-event.schema.json')(agentEventToCloudEvent(parseAgentEvent(permissionDenied)))).toBe(true);
  });

  it.each([
    ['an unknown type', { ...requestedInsert, type: 'tool_call.retried' }],
    ['a time without offset', { ...requestedInsert, time: '2025-03-14T09:26:53' }],
    ['a failed outcome without an error', { ...permissionDenied, data: { ...permissionDenied.data, error: null } }],
    ['a bad SQLSTATE', { ...permissionDenied, data: { ...permissionDenied.data, error: { sqlState: '425' } } }],
    ['attempt 0', { ...requestedInsert, data: { call: { ...requestedInsert.data.call, attempt: 0 } } }],
    ['an unknown effect', { ...requestedInsert, data: { call: { ...requestedInsert.data.call, effect: 'delete' } } }],
    [
      'an HTTP status of 700',
      { ...transientUnavailable, data: { ...transientUnavailable.data, error: { httpStatus: 700 } } },
    ],
    ['a missing tenant', { ...requestedInsert, tenant: undefined }],
  ])('on a bad event: %s', (_, input) => {
    const json: unknown = JSON.parse(JSON.stringify(input));
    expect(zodAccepts(json)).toBe(false);
    expect(schemaAccepts(json)).toBe(false);
  });

  it('on lengths, counted in characters (code points) by both, not in UTF-16 units', () => {
    const withTenant = (tenant: string) => ({ ...requestedInsert, tenant });
    expect([zodAccepts, schemaAccepts].map((accepts) => accepts(withTenant('🚀'.repeat(LIMITS.idChars))))).toEqual([
      true,
      true,
    ]);
    expect([zodAccepts, schemaAccepts].map((accepts) => accepts(withTenant('🚀'.repeat(LIMITS.idChars + 1))))).toEqual([
      false,
      false,
    ]);
  });

  it('on bad artifacts and CloudEvents', () => {
    const artifact = { ...permissionBlock.artifact, sample_receipts: ['a', 'b', 'c', 'd'] };
    expect(DiagnosticArtifactSchema.safeParse(artifact).success).toBe(false);
    expect(validator('diagnostic-artifact.schema.json')(artifact)).toBe(false);
    const ce = { ...agentEventToCloudEvent(parseAgentEvent(requestedInsert)), tenant_id: 'acme' };
    expect(validator('cloud-event.schema.json')(ce)).toBe(false);
  });

  it('on any valid event: the schema never refuses what zod accepts', () => {
    fc.assert(
      fc.property(agentEventInput, (input) => {
        expect(zodAccepts(input)).toBe(true);
        const validate = validator('agent-event.schema.json');
        validate(input);
        expect(validate.errors ?? null, JSON.stringify(input)).toBeNull();
      }),
      { numRuns: 200 },
    );
  });

  it('on any single corruption of a valid event', () => {
    fc.assert(
      fc.property(agentEventInput.chain(corruptOneNode), (input) => {
        const verdicts = { zod: zodAccepts(input), schema: schemaAccepts(input) };
        expect(verdicts, JSON.stringify(input)).toEqual({ zod: verdicts.schema, schema: verdicts.schema });
      }),
      { numRuns: 300 },
    );
  });
});

describe('rules JSON Schema cannot express (zod enforces them; the schema documents them)', () => {
  it('the argument byte cap', () => {
    const input = {
      ...requestedInsert,
      data: { call: { ...requestedInsert.data.call, arguments: { q: '€'.repeat(6_000) } } },
    };
    expect(zodAccepts(input)).toBe(false);
    expect(schemaAccepts(input)).toBe(true);
    const described = generated.find((s) => s.fileName === 'tool-call-requested.schema.json')!.schema as any;
    expect(described.properties.data.properties.call.properties.arguments.description).toContain(
      `${LIMITS.argumentsBytes} bytes`,
    );
  });

  it('the UTC instant of a timestamp in years 0001–9999 (the offset shifts it across a year boundary)', () => {
    for (const time of ['0001-01-01T00:00:00+00:01', '9999-12-31T23:59:59.999-00:01']) {
      expect(zodAccepts({ ...requestedInsert, time }), time).toBe(false);
      expect(schemaAccepts({ ...requestedInsert, time }), time).toBe(true);
    }
  });
});
