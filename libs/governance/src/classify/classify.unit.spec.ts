import { describe, expect, it } from 'vitest';
import { classify } from './classify.js';
import { outcome } from './spec-support/outcome.js';

describe('classify', () => {
  describe('successes', () => {
    it('returns null for a plain success', () => {
      expect(classify(outcome({ call: { effect: 'write' }, status: 'succeeded' }))).toBeNull();
    });

    it('flags an empty read result as ambiguous until a verifier says the empty is valid', () => {
      const c = classify(outcome({ call: { effect: 'read' }, status: 'succeeded', result: { empty: true, rowCount: 0 } }));
      expect(c).toMatchObject({ failureClass: 'ambiguous_effect', reason: 'empty_result_unverified', sideEffect: { value: false } });
    });

    it('reads rowCount 0 of a read as an empty result when the producer left "empty" unset', () => {
      const c = classify(outcome({ call: { sqlStatement: 'SELECT * FROM t WHERE x = 1' }, status: 'succeeded', result: { rowCount: 0 } }));
      expect(c?.reason).toBe('empty_result_unverified');
    });

    it('trusts an explicit empty=false over rowCount', () => {
      expect(classify(outcome({ call: { effect: 'read' }, status: 'succeeded', result: { empty: false, rowCount: 0 } }))).toBeNull();
    });

    it('does not flag an empty result of a write (an UPDATE matching no row is not a read)', () => {
      expect(classify(outcome({ call: { sqlStatement: 'UPDATE t SET x = 1 WHERE id = 9' }, status: 'succeeded', result: { rowCount: 0 } }))).toBeNull();
    });
  });

  describe('the dispatched-write rule: unknown is not failed', () => {
    it('makes a timeout after sending a POST without idempotency key ambiguous_effect, not transient', () => {
      const c = classify(outcome({ call: { httpMethod: 'POST' }, dispatch: { requestSent: true }, error: { errno: 'ETIMEDOUT' } }));
      expect(c).toMatchObject({ failureClass: 'ambiguous_effect', reason: 'dispatched_write_without_idempotency_key', sideEffect: { value: true } });
      expect(c?.sideEffect.evidence).toEqual(expect.arrayContaining(['http_method:POST', 'dispatch:request_sent', 'effect:unknown', 'error:errno:ETIMEDOUT']));
    });

    it('keeps the same timeout transient on a GET, which cannot mutate', () => {
      const c = classify(outcome({ call: { httpMethod: 'GET' }, error: { errno: 'ETIMEDOUT' } }));
      expect(c).toMatchObject({ failureClass: 'transient', reason: 'errno:ETIMEDOUT', sideEffect: { value: false } });
    });

    it('keeps it transient when an idempotency key makes the repeat safe, and says why', () => {
      const c = classify(outcome({ call: { httpMethod: 'POST', idempotencyKey: 'k-1' }, error: { httpStatus: 504 } }));
      expect(c).toMatchObject({ failureClass: 'transient', sideEffect: { value: true } });
      expect(c?.sideEffect.evidence).toEqual(expect.arrayContaining(['idempotency_key:present', 'retry_safe:idempotency_key']));
    });

    it('keeps it transient for an idempotent method (PUT) or a declared idempotent write', () => {
      expect(classify(outcome({ call: { httpMethod: 'PUT' }, error: { httpStatus: 504 } }))?.failureClass).toBe('transient');
      expect(classify(outcome({ call: { effect: 'idempotent_write' }, error: { errno: 'ECONNRESET' } }))?.failureClass).toBe('transient');
    });

    it('classifies an error that proves nothing was sent by its own meaning', () => {
      const c = classify(outcome({ call: { effect: 'write' }, error: { errno: 'ECONNREFUSED', message: 'connect ECONNREFUSED 10.0.0.1:443' } }));
      expect(c).toMatchObject({ failureClass: 'transient', reason: 'errno:ECONNREFUSED', sideEffect: { value: false } });
    });

    it('classifies a definite refusal of a write by its own meaning (400 is validation, not ambiguous)', () => {
      expect(classify(outcome({ call: { effect: 'write' }, error: { httpStatus: 400 } }))?.failureClass).toBe('validation');
      expect(classify(outcome({ call: { effect: 'write' }, error: { httpStatus: 429 } }))?.failureClass).toBe('transient');
    });

    it('does not call a rolled-back write ambiguous (deadlock, serialization failure)', () => {
      const c = classify(outcome({ call: { sqlStatement: 'UPDATE a SET b = b + 1' }, error: { sqlState: '40P01' } }));
      expect(c).toMatchObject({ failureClass: 'transient', sideEffect: { value: false } });
      expect(c?.sideEffect.evidence).toContain('sqlstate:rolled_back');
    });

    it('leaves permission and invariant classes alone on a maybe-applied write: they already stop', () => {
      const c = classify(outcome({ call: { effect: 'write' }, error: { grpcCode: 'DATA_LOSS' } }));
      expect(c).toMatchObject({ failureClass: 'invariant_violation', reason: 'grpc:DATA_LOSS', sideEffect: { value: true } });
    });

    it('turns validation and missing_resource into ambiguous_effect too when the write may have landed', () => {
      const oversizedReply = classify(outcome({ call: { effect: 'write' }, error: { errno: 'UND_ERR_RES_EXCEEDED_MAX_SIZE' } }));
      expect(oversizedReply).toMatchObject({ failureClass: 'ambiguous_effect' });
      expect(oversizedReply?.sideEffect.evidence).toContain('error:errno:UND_ERR_RES_EXCEEDED_MAX_SIZE');
      const unknown = classify(outcome({ call: { effect: 'write' }, status: 'unknown', error: { httpStatus: 404 } }));
      expect(unknown?.failureClass).toBe('ambiguous_effect');
    });
  });

  describe('status "unknown"', () => {
    it('is ambiguous_effect for a write that may have been applied', () => {
      const c = classify(outcome({ call: { effect: 'write' }, status: 'unknown' }));
      expect(c).toMatchObject({ failureClass: 'ambiguous_effect', sideEffect: { value: true } });
      expect(c?.sideEffect.evidence).toContain('outcome:unknown');
    });

    it('is transient for a read', () => {
      expect(classify(outcome({ call: { effect: 'read' }, status: 'unknown' }))).toMatchObject({ failureClass: 'transient', reason: 'outcome_unknown' });
    });

    it('is transient for a write proven not sent', () => {
      const c = classify(outcome({ call: { effect: 'write' }, status: 'unknown', dispatch: { requestSent: false } }));
      expect(c).toMatchObject({ failureClass: 'transient', sideEffect: { value: false } });
    });
  });

  describe('class hints', () => {
    it('honours an explicit hint (reason "class_hint")', () => {
      const c = classify(outcome({ call: { effect: 'read' }, error: { httpStatus: 500, classHint: 'invariant_violation' } }));
      expect(c).toMatchObject({ failureClass: 'invariant_violation', reason: 'class_hint' });
    });

    it('honours a hint that loosens a read (nothing to duplicate)', () => {
      const c = classify(outcome({ call: { effect: 'read' }, error: { httpStatus: 403, classHint: 'transient' } }));
      expect(c).toMatchObject({ failureClass: 'transient', reason: 'class_hint' });
    });

    it('refuses to downgrade a dispatched non-idempotent write with unknown effect to transient', () => {
      const c = classify(outcome({ call: { httpMethod: 'POST' }, dispatch: { requestSent: true }, error: { errno: 'ECONNRESET', classHint: 'transient' } }));
      expect(c).toMatchObject({ failureClass: 'ambiguous_effect', reason: 'dispatched_write_without_idempotency_key' });
      expect(c?.sideEffect.evidence).toContain('class_hint_refused:transient');
    });

    it('refuses validation and missing_resource hints there as well: each invites another attempt', () => {
      for (const classHint of ['validation', 'missing_resource'] as const) {
        expect(classify(outcome({ call: { effect: 'write' }, error: { httpStatus: 502, classHint } }))?.failureClass).toBe('ambiguous_effect');
      }
    });

    it('accepts a stricter hint on such a write', () => {
      const c = classify(outcome({ call: { effect: 'write' }, error: { httpStatus: 502, classHint: 'permission' } }));
      expect(c).toMatchObject({ failureClass: 'permission', reason: 'class_hint' });
    });

    it('accepts a transient hint on a write that was proven not sent', () => {
      const c = classify(outcome({ call: { effect: 'write' }, dispatch: { requestSent: false }, error: { message: 'boom', classHint: 'transient' } }));
      expect(c).toMatchObject({ failureClass: 'transient', reason: 'class_hint' });
    });
  });

  describe('precedence among signals', () => {
    it('lets a provider code beat the HTTP status (AWS ThrottlingException comes as a 400)', () => {
      const c = classify(outcome({ call: { effect: 'read' }, error: { httpStatus: 400, name: 'ThrottlingException' } }));
      expect(c?.reason).toBe('provider:ThrottlingException');
    });

    it('lets rate-limit headers beat a 403 (GitHub primary rate limit)', () => {
      const c = classify(outcome({ call: { effect: 'read' }, error: { httpStatus: 403, headers: { 'X-RateLimit-Remaining': '0' } } }));
      expect(c).toMatchObject({ failureClass: 'transient', reason: 'rate_limit_exhausted' });
    });

    it('lets a specific SQLSTATE beat a wrapping HTTP status (PostgREST-style 400 with 42501)', () => {
      expect(classify(outcome({ call: { effect: 'read' }, error: { httpStatus: 400, sqlState: '42501' } }))?.reason).toBe('sqlstate:42501');
    });

    it('lets the gRPC status beat an HTTP 200 transport status', () => {
      expect(classify(outcome({ call: { effect: 'read' }, error: { httpStatus: 200, grpcCode: 7 } }))?.reason).toBe('grpc:PERMISSION_DENIED');
    });

    it('lets a body code beat the status it refines (OpenAI: a 429 that is a quota, not a rate limit)', () => {
      const c = classify(outcome({ call: { effect: 'read' }, error: { httpStatus: 429, message: '{"error":{"type":"insufficient_quota","code":"insufficient_quota"}}' } }));
      expect(c).toMatchObject({ failureClass: 'permission', reason: 'provider:insufficient_quota' });
    });

    it('keeps a protocol code above codes nested in its payload', () => {
      const c = classify(outcome({ call: { effect: 'read' }, error: { jsonRpcCode: -32602, message: '[{"code":"invalid_type","path":["title"]}]' } }));
      expect(c?.reason).toBe('jsonrpc:-32602');
    });

    it('uses message phrases only to refine a catch-all, never over a specific code', () => {
      expect(classify(outcome({ call: { effect: 'read' }, error: { httpStatus: 404, message: 'permission denied' } }))?.reason).toBe('http_status:404');
      expect(classify(outcome({ call: { effect: 'read' }, error: { httpStatus: 400, message: 'permission denied for table x' } }))).toMatchObject({
        failureClass: 'permission',
        reason: 'message:permission_denied',
      });
    });

    it('never lets a phrase change what a reply proves: a 500 saying "connection refused" was still sent', () => {
      const c = classify(outcome({ call: { effect: 'write' }, error: { httpStatus: 500, message: 'upstream: connect ECONNREFUSED 10.0.0.5:5432' } }));
      expect(c).toMatchObject({ failureClass: 'ambiguous_effect', sideEffect: { value: true } });
    });

    it('falls back to "unrecognized_error", transient, effect unknown', () => {
      expect(classify(outcome({ call: { effect: 'read' }, error: { message: 'something odd happened' } }))).toMatchObject({
        failureClass: 'transient',
        reason: 'unrecognized_error',
      });
      expect(classify(outcome({ call: { effect: 'write' }, error: { message: 'something odd happened' } }))?.failureClass).toBe('ambiguous_effect');
    });
  });

  describe('bad input', () => {
    it('refuses a failed outcome without an error, naming the fix', () => {
      const bad = { ...outcome({ call: { effect: 'read' }, error: { httpStatus: 500 } }), error: null };
      expect(() => classify(bad)).toThrow(/failed outcome needs an error/);
    });

    it('refuses an unknown status', () => {
      const bad = { ...outcome({ status: 'succeeded' }), status: 'exploded' } as unknown as Parameters<typeof classify>[0];
      expect(() => classify(bad)).toThrow(/unknown outcome status "exploded"/);
    });
  });
});
