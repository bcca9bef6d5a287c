import fc from 'fast-check';
import type { AgentEventInput, RawErrorInput, ToolCallInput } from '../agent-events.js';
import { DECLARED_EFFECTS, FAILURE_CLASSES } from '../failure-class.js';
import { RESOLUTION_KINDS, VERIFIER_FINDINGS, VERIFIER_KINDS } from '../agent-events.js';

// Arbitraries for *valid* producer input: every value they make must pass parseAgentEvent, so a failing
// property is a bug in the codec, never in the generator. Strings use the whole of Unicode on purpose.

// Identifiers never hold U+0000 (the contract refuses it: Postgres text cannot store it).
const id = fc.string({ minLength: 1, maxLength: 40, unit: 'binary' }).filter((s) => !s.includes('\u0000'));
const text = (maxLength: number) => fc.string({ maxLength, unit: 'binary' });
const nullable = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: null });

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** RFC 3339 timestamps with Z or a numeric offset Postgres accepts (±15:59), with or without fractional seconds. */
export const timestamp = fc
  .record({
    at: fc.date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('2199-12-31T23:59:59Z'), noInvalidDate: true }),
    fraction: fc.boolean(),
    offsetMinutes: fc.oneof(fc.constant(null), fc.integer({ min: -15 * 60 - 59, max: 15 * 60 + 59 })),
  })
  .map(({ at, fraction, offsetMinutes }) => {
    const iso = at.toISOString(); // always UTC, with milliseconds
    const base = fraction ? iso.slice(0, -1) : iso.slice(0, 19);
    if (offsetMinutes === null) return `${base}Z`;
    const sign = offsetMinutes < 0 ? '-' : '+';
    const abs = Math.abs(offsetMinutes);
    return `${base}${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
  });

export const traceparent = fc
  .tuple(fc.stringMatching(/^[0-9a-f]{32}$/), fc.stringMatching(/^[0-9a-f]{16}$/), fc.constantFrom('00', '01'))
  .map(([trace, span, flags]) => `00-${trace}-${span}-${flags}`);

// fast-check generates "__proto__" members now and then; the contract refuses them (json-limits.ts).
const toolArguments = fc
  .dictionary(text(20), fc.jsonValue({ maxDepth: 3, stringUnit: 'binary' }), { maxKeys: 6 })
  .filter((args) => !JSON.stringify(args).includes('"__proto__"'));

export const toolCall: fc.Arbitrary<ToolCallInput> = fc.record(
  {
    agent: id,
    run: id,
    callId: id,
    attempt: fc.integer({ min: 1, max: 10_000 }),
    intentId: id,
    tool: id,
    effect: fc.constantFrom(...DECLARED_EFFECTS),
    resourceClass: nullable(id),
    resourceId: nullable(text(120)),
    principal: nullable(id),
    authScope: nullable(id),
    arguments: toolArguments,
    idempotencyKey: nullable(text(64)),
    httpMethod: nullable(fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE')),
    sqlStatement: nullable(fc.constantFrom('SELECT', 'INSERT', 'UPDATE', 'DELETE', 'MERGE')),
  },
  { requiredKeys: ['agent', 'run', 'callId', 'attempt', 'intentId', 'tool', 'effect'] },
);

export const rawError: fc.Arbitrary<RawErrorInput> = fc.record(
  {
    httpStatus: nullable(fc.integer({ min: 100, max: 599 })),
    sqlState: nullable(fc.stringMatching(/^[0-9A-Z]{5}$/)),
    grpcCode: nullable(fc.oneof(fc.integer({ min: 0, max: 16 }), fc.constantFrom('UNAVAILABLE', 'PERMISSION_DENIED'))),
    errno: nullable(fc.constantFrom('ECONNRESET', 'ETIMEDOUT', 'ECONNREFUSED')),
    jsonRpcCode: nullable(fc.integer({ min: -32_768, max: 32_767 })),
    name: nullable(id),
    message: nullable(text(200)),
    // Not "__proto__": the contract refuses that member name anywhere (json-limits.ts).
    headers: fc.dictionary(
      fc.string({ maxLength: 30 }).filter((name) => name !== '__proto__'),
      text(60),
      { maxKeys: 5 },
    ),
    classHint: nullable(fc.constantFrom(...FAILURE_CLASSES)),
  },
  { requiredKeys: [] },
);

const envelope = { id, tenant: id, time: timestamp };

const requested = fc.record({
  type: fc.constant('tool_call.requested' as const),
  ...envelope,
  data: fc.record({ call: toolCall }),
});

const outcome = fc.record({
  type: fc.constant('tool_call.outcome' as const),
  ...envelope,
  data: fc
    .record(
      {
        call: toolCall,
        status: fc.constantFrom('succeeded' as const, 'failed' as const, 'unknown' as const),
        durationMs: nullable(fc.double({ min: 0, max: 1e7, noNaN: true, noDefaultInfinity: true })),
        result: fc.record({ empty: nullable(fc.boolean()), rowCount: nullable(fc.nat()) }, { requiredKeys: [] }),
        error: nullable(rawError),
        dispatch: fc.record(
          { requestSent: nullable(fc.boolean()), responseReceived: nullable(fc.boolean()) },
          { requiredKeys: [] },
        ),
        // v3: the digest of the result.
        resultDigest: nullable(fc.stringMatching(/^[0-9a-f]{64}$/).map((hex) => `sha256:${hex}`)),
        // v3, optional: the producer's fingerprint of the arguments and the names it left out (each once).
        argumentsDigest: fc.record({
          digest: fc
            .tuple(fc.stringMatching(/^[0-9a-z]{1,11}$/), fc.nat({ max: 99_999_999 }))
            .map(([hash, size]) => `h:${hash}:${size}`),
          without: fc.uniqueArray(id, { maxLength: 6 }),
        }),
      },
      { requiredKeys: ['call', 'status'] },
    )
    // A failed outcome must say how it failed; the others may carry an error or not.
    .chain((data) =>
      data.status === 'failed' && !data.error ? rawError.map((error) => ({ ...data, error })) : fc.constant(data),
    ),
});

const verifier = fc.record({
  type: fc.constant('verifier.result' as const),
  ...envelope,
  data: fc.record(
    {
      agent: id,
      run: id,
      callId: id,
      tool: id,
      verifier: fc.constantFrom(...VERIFIER_KINDS),
      finding: fc.constantFrom(...VERIFIER_FINDINGS),
      resolved: fc.record(
        {
          emptyCause: nullable(fc.constantFrom('wrong_query' as const, 'target_absent' as const)),
          resolvedResourceId: nullable(text(120)),
        },
        { requiredKeys: [] },
      ),
      detail: nullable(text(200)),
    },
    { requiredKeys: ['agent', 'run', 'callId', 'tool', 'verifier', 'finding'] },
  ),
});

const resolution = fc.record({
  type: fc.constant('operator.resolution' as const),
  ...envelope,
  data: fc.record(
    {
      keyId: fc.string({ minLength: 1, maxLength: 200, unit: 'binary' }).filter((s) => !s.includes('\u0000')),
      resolution: fc.constantFrom(...RESOLUTION_KINDS),
      by: id,
      reason: fc.string({ minLength: 1, maxLength: 200, unit: 'binary' }),
      unsafeOverride: fc.boolean(),
    },
    { requiredKeys: ['keyId', 'resolution', 'by', 'reason'] },
  ),
});

/**
 * Any valid agent event as a producer may send it (defaulted fields sometimes left out). Producers speak JSON,
 * so the value is what JSON can carry: -0 in generated numbers has no JSON form and arrives as 0.
 */
export const agentEventInput: fc.Arbitrary<AgentEventInput> = fc
  .oneof(requested, outcome, verifier, resolution)
  .map((event) => JSON.parse(JSON.stringify(event)) as AgentEventInput);
