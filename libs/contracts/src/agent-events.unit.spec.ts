import { describe, expect, it } from 'vitest';
import { ContractError, parseAgentEvent } from './agent-event-envelope.js';
import { compiledAgentEvent } from './agent-event-fast-path.js';
import { LIMITS } from './limits.js';
import {
  ambiguousTimeout,
  operatorGranted,
  permissionDenied,
  readAfterWriteVerified,
  requestedInsert,
  SAMPLE_EVENTS,
  transientUnavailable,
} from './spec-support/sample-events.js';
import { thrown } from './spec-support/thrown.js';

/** A deep copy of a sample with one change applied, so each rejection names exactly one fault. */
function variant<T>(sample: T, change: (copy: any) => void): unknown {
  const copy = structuredClone(sample) as any;
  change(copy);
  return copy;
}

const rejection = (input: unknown) => thrown(ContractError, () => parseAgentEvent(input));

describe('agent event schemas', () => {
  it.each(SAMPLE_EVENTS.map((e) => [`${e.type} ${e.id}`, e] as const))('accept the realistic event %s', (_, sample) => {
    const event = parseAgentEvent(sample);
    expect(event).toMatchObject(sample);
  });

  it('fill what producers leave out with explicit nulls and empty values', () => {
    const event = parseAgentEvent(transientUnavailable);
    if (event.type !== 'tool_call.outcome') throw new Error(`parsed as ${event.type}`);
    expect(event.data.call).toMatchObject({ principal: null, authScope: null, arguments: {}, idempotencyKey: null });
    expect(event.data.result).toEqual({ empty: null, rowCount: null });
    expect(event.data.dispatch).toEqual({ requestSent: null, responseReceived: null });
    expect(event.data.error).toMatchObject({ httpStatus: 503, sqlState: null, grpcCode: null, classHint: null });
  });

  it('keep an unknown outcome without a verdict: unknown is not failed', () => {
    const event = parseAgentEvent(ambiguousTimeout);
    expect(event.data).toMatchObject({ status: 'unknown', dispatch: { requestSent: true, responseReceived: false } });
  });

  it('accept an unknown outcome that carries no error at all', () => {
    expect(() => parseAgentEvent(variant(ambiguousTimeout, (e) => delete e.data.error))).not.toThrow();
  });

  it.each([
    ['tenant', variant(requestedInsert, (e) => delete e.tenant)],
    ['id', variant(requestedInsert, (e) => (e.id = ''))],
    ['time', variant(requestedInsert, (e) => (e.time = '2025-03-14T09:26:53'))],
    ['time', variant(requestedInsert, (e) => (e.time = 'yesterday'))],
    ['type', variant(requestedInsert, (e) => (e.type = 'tool_call.retried'))],
    ['data.call.attempt', variant(requestedInsert, (e) => (e.data.call.attempt = 0))],
    ['data.call.attempt', variant(requestedInsert, (e) => (e.data.call.attempt = 1.5))],
    ['data.call.effect', variant(requestedInsert, (e) => (e.data.call.effect = 'delete'))],
    ['data.call.tool', variant(requestedInsert, (e) => (e.data.call.tool = 'x'.repeat(LIMITS.idChars + 1)))],
    ['data.call.arguments', variant(requestedInsert, (e) => (e.data.call.arguments = ['not', 'an', 'object']))],
    ['data.status', variant(permissionDenied, (e) => (e.data.status = 'errored'))],
    ['data.error', variant(permissionDenied, (e) => delete e.data.error)],
    ['data.error.sqlState', variant(permissionDenied, (e) => (e.data.error.sqlState = '425'))],
    ['data.error.httpStatus', variant(transientUnavailable, (e) => (e.data.error.httpStatus = 700))],
    ['data.error.grpcCode', variant(transientUnavailable, (e) => (e.data.error.grpcCode = 17))],
    ['data.error.classHint', variant(transientUnavailable, (e) => (e.data.error.classHint = 'transient_5xx'))],
    ['data.error.headers', variant(transientUnavailable, (e) => (e.data.error.headers = { __PROTO__: 'x' }))],
    ['data.durationMs', variant(permissionDenied, (e) => (e.data.durationMs = -1))],
    ['data.verifier', variant(readAfterWriteVerified, (e) => (e.data.verifier = 'vibes'))],
    ['data.finding', variant(readAfterWriteVerified, (e) => (e.data.finding = 'passed'))],
    ['data.finding', variant(readAfterWriteVerified, (e) => delete e.data.finding)],
    // Data with `passed` and no `finding` is v1 (converted at the edge): its fields are named as v1's.
    [
      'data.passed',
      variant(readAfterWriteVerified, (e) => {
        delete e.data.finding;
        e.data.passed = 'yes';
      }),
    ],
    [
      'data.argumentsDigest.without',
      variant(ambiguousTimeout, (e) => (e.data.argumentsDigest = { digest: 'h:abc:12', without: ['nonce', 'nonce'] })),
    ],
    [
      'data.argumentsDigest.digest',
      variant(ambiguousTimeout, (e) => (e.data.argumentsDigest = { digest: 'sha256:00', without: [] })),
    ],
    ['data.reason', variant(operatorGranted, (e) => (e.data.reason = ''))],
    ['data.resolution', variant(operatorGranted, (e) => (e.data.resolution = 'ignore'))],
  ])('reject a bad event naming the field %s', (field, input) => {
    const error = rejection(input);
    expect(error.code).toBe('invalid_field');
    expect(error.field).toBe(field);
    expect(error.message).toMatch(new RegExp(`^${field.replaceAll('.', '\\.')}: `));
  });

  it("take a success's argumentsDigest on the fast path, as zod would, and leave an absent one absent", () => {
    const withDigest = variant(
      ambiguousTimeout,
      (e) => (e.data.argumentsDigest = { digest: 'h:1x2y:25', without: ['requestId'] }),
    );
    const fast = compiledAgentEvent(withDigest);
    expect(fast).not.toBeNull();
    expect(fast).toEqual(parseAgentEvent(withDigest));
    expect(fast!.type === 'tool_call.outcome' && fast!.data.argumentsDigest).toEqual({
      digest: 'h:1x2y:25',
      without: ['requestId'],
    });
    const without = compiledAgentEvent(ambiguousTimeout)!;
    expect(without.type === 'tool_call.outcome' && Object.hasOwn(without.data, 'argumentsDigest')).toBe(false);
  });

  it('replace a lone surrogate in an identifier with U+FFFD, as a Kafka header (UTF-8) carries it (identifier-text.ts)', () => {
    expect(parseAgentEvent(variant(requestedInsert, (e) => (e.tenant = 'acme\ud800'))).tenant).toBe('acme\ufffd');
    const resource = parseAgentEvent(variant(requestedInsert, (e) => (e.data.call.resourceId = 'x\udc00y')));
    expect(resource.type === 'tool_call.requested' && resource.data.call.resourceId).toBe('x\ufffdy');
  });

  it('replace U+0000 in an identifier with U+FFFD: Postgres text cannot store it, and every door reads it so', () => {
    const run = parseAgentEvent(variant(requestedInsert, (e) => (e.data.call.run = 'run\u0000x')));
    expect(run.type === 'tool_call.requested' && run.data.call.run).toBe('run\ufffdx');
    const granted = parseAgentEvent(variant(operatorGranted, (e) => (e.data.keyId = 'k\u0000')));
    expect(granted.type === 'operator.resolution' && granted.data.keyId).toBe('k\ufffd');
    const id = parseAgentEvent(variant(requestedInsert, (e) => (e.id = 'evt\u0000\ud800')));
    expect(id.id).toBe('evt\ufffd\ufffd');
  });

  it('accept identifiers beyond ASCII, astral planes included', () => {
    expect(parseAgentEvent(variant(requestedInsert, (e) => (e.tenant = 'café-🚀'))).tenant).toBe('café-🚀');
  });

  it('name the error headers when a producer sends more than the cap', () => {
    const headers = Object.fromEntries(Array.from({ length: LIMITS.headers + 1 }, (_, i) => [`x-h${i}`, 'v']));
    const error = rejection(variant(transientUnavailable, (e) => (e.data.error.headers = headers)));
    expect(error.field).toBe('data.error.headers');
    expect(error.message).toContain(`more than ${LIMITS.headers} headers`);
  });

  it('reject something that is not an event object at all', () => {
    expect(rejection(null)).toMatchObject({ code: 'invalid_field', field: '(event)' });
    expect(rejection('tool_call.requested')).toMatchObject({ code: 'invalid_field', field: '(event)' });
  });
});

describe('argument size cap', () => {
  /** Arguments whose UTF-8 JSON serialization is exactly `bytes` long. */
  const argumentsOfBytes = (bytes: number, filler = 'a') => {
    const overhead = Buffer.byteLength(JSON.stringify({ q: '' }), 'utf8');
    const unit = Buffer.byteLength(filler, 'utf8');
    const args = { q: filler.repeat(Math.floor((bytes - overhead) / unit)) + 'a'.repeat((bytes - overhead) % unit) };
    expect(Buffer.byteLength(JSON.stringify(args), 'utf8')).toBe(bytes);
    return args;
  };

  it('accepts arguments of exactly the cap', () => {
    const args = argumentsOfBytes(LIMITS.argumentsBytes);
    expect(() => parseAgentEvent(variant(requestedInsert, (e) => (e.data.call.arguments = args)))).not.toThrow();
  });

  it('refuses arguments one byte over the cap, naming the field', () => {
    const args = argumentsOfBytes(LIMITS.argumentsBytes + 1);
    const error = rejection(variant(requestedInsert, (e) => (e.data.call.arguments = args)));
    expect(error).toMatchObject({ code: 'invalid_field', field: 'data.call.arguments' });
    expect(error.message).toContain(`${LIMITS.argumentsBytes} bytes`);
  });

  it('counts UTF-8 bytes, not characters: 6,000 three-byte characters are over a 16 KiB cap', () => {
    const args = { note: '€'.repeat(6_000) };
    expect(JSON.stringify(args).length).toBeLessThan(LIMITS.argumentsBytes);
    expect(rejection(variant(requestedInsert, (e) => (e.data.call.arguments = args))).field).toBe(
      'data.call.arguments',
    );
  });
});

describe('event size cap', () => {
  it('refuses an event whose fields are each within their caps but whose whole is too large', () => {
    // 32 headers × 1,024 three-byte characters ≈ 96 KiB: every header is legal, the event is not.
    const headers = Object.fromEntries(Array.from({ length: LIMITS.headers }, (_, i) => [`x-h${i}`, '€'.repeat(1024)]));
    const error = rejection(variant(transientUnavailable, (e) => (e.data.error.headers = headers)));
    expect(error.code).toBe('too_large');
    expect(error.field).toBe('(event)');
    expect(error.message).toMatch(/^event is \d+ bytes; the limit is 65536$/);
  });

  it('measures before validating, so an oversized unknown field cannot make the parser do the work', () => {
    const error = rejection(variant(requestedInsert, (e) => (e.data.call.padding = 'x'.repeat(LIMITS.eventBytes))));
    expect(error.code).toBe('too_large');
  });

  it('drops unknown fields of an event within the cap rather than storing them', () => {
    const event = parseAgentEvent(variant(requestedInsert, (e) => (e.data.call.padding = 'x')));
    expect(event.data).not.toHaveProperty('call.padding');
  });
});
