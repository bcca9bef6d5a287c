import { describe, expect, it } from 'vitest';
import { classify } from './classify.js';
import { outcome } from './spec-support/outcome.js';

describe('classify: hints and precedence', () => {
  describe('class hints', () => {
    it('honours an explicit hint (reason "class_hint")', () => {
      const c = classify(
        outcome({ call: { effect: 'read' }, error: { httpStatus: 500, classHint: 'invariant_violation' } }),
      );
      expect(c).toMatchObject({ failureClass: 'invariant_violation', reason: 'class_hint' });
    });

    it('honours a hint that loosens a read (nothing to duplicate)', () => {
      const c = classify(outcome({ call: { effect: 'read' }, error: { httpStatus: 403, classHint: 'transient' } }));
      expect(c).toMatchObject({ failureClass: 'transient', reason: 'class_hint' });
    });

    it('refuses to downgrade a dispatched non-idempotent write with unknown effect to transient', () => {
      const c = classify(
        outcome({
          call: { httpMethod: 'POST' },
          dispatch: { requestSent: true },
          error: { errno: 'ECONNRESET', classHint: 'transient' },
        }),
      );
      expect(c).toMatchObject({ failureClass: 'ambiguous_effect', reason: 'dispatched_write_without_idempotency_key' });
      expect(c?.sideEffect.evidence).toContain('class_hint_refused:transient');
    });

    it('refuses validation and missing_resource hints there as well: each invites another attempt', () => {
      for (const classHint of ['validation', 'missing_resource'] as const) {
        expect(
          classify(outcome({ call: { effect: 'write' }, error: { httpStatus: 502, classHint } }))?.failureClass,
        ).toBe('ambiguous_effect');
      }
    });

    it('accepts a stricter hint on such a write', () => {
      const c = classify(outcome({ call: { effect: 'write' }, error: { httpStatus: 502, classHint: 'permission' } }));
      expect(c).toMatchObject({ failureClass: 'permission', reason: 'class_hint' });
    });

    it('accepts a transient hint on a write that was proven not sent', () => {
      const c = classify(
        outcome({
          call: { effect: 'write' },
          dispatch: { requestSent: false },
          error: { message: 'boom', classHint: 'transient' },
        }),
      );
      expect(c).toMatchObject({ failureClass: 'transient', reason: 'class_hint' });
    });
  });

  describe('precedence among signals', () => {
    it('lets a provider code beat the HTTP status (AWS ThrottlingException comes as a 400)', () => {
      const c = classify(
        outcome({ call: { effect: 'read' }, error: { httpStatus: 400, name: 'ThrottlingException' } }),
      );
      expect(c?.reason).toBe('provider:ThrottlingException');
    });

    it('lets rate-limit headers beat a 403 (GitHub primary rate limit)', () => {
      const c = classify(
        outcome({ call: { effect: 'read' }, error: { httpStatus: 403, headers: { 'X-RateLimit-Remaining': '0' } } }),
      );
      expect(c).toMatchObject({ failureClass: 'transient', reason: 'github_rate_limit_exhausted' });
    });

    it('names a 429 with an exhausted allowance a plain rate limit unless GitHub sent it', () => {
      const c = classify(
        outcome({ call: { effect: 'read' }, error: { httpStatus: 429, headers: { 'x-ratelimit-remaining': '0' } } }),
      );
      expect(c).toMatchObject({ failureClass: 'transient', reason: 'rate_limit_exhausted' });
    });

    it('lets a specific SQLSTATE beat a wrapping HTTP status (PostgREST-style 400 with 42501)', () => {
      expect(
        classify(outcome({ call: { effect: 'read' }, error: { httpStatus: 400, sqlState: '42501' } }))?.reason,
      ).toBe('sqlstate:42501');
    });

    it('lets the gRPC status beat an HTTP 200 transport status', () => {
      expect(classify(outcome({ call: { effect: 'read' }, error: { httpStatus: 200, grpcCode: 7 } }))?.reason).toBe(
        'grpc:PERMISSION_DENIED',
      );
    });

    it('lets a body code beat the status it refines (OpenAI: a 429 that is a quota, not a rate limit)', () => {
      const c = classify(
        outcome({
          call: { effect: 'read' },
          error: { httpStatus: 429, message: '{"error":{"type":"insufficient_quota","code":"insufficient_quota"}}' },
        }),
      );
      expect(c).toMatchObject({ failureClass: 'permission', reason: 'provider:insufficient_quota' });
    });

    it('keeps a protocol code above codes nested in its payload', () => {
      const c = classify(
        outcome({
          call: { effect: 'read' },
          error: { jsonRpcCode: -32602, message: '[{"code":"invalid_type","path":["title"]}]' },
        }),
      );
      expect(c?.reason).toBe('jsonrpc:-32602');
    });

    it('uses message phrases only to refine a catch-all, never over a specific code', () => {
      expect(
        classify(outcome({ call: { effect: 'read' }, error: { httpStatus: 404, message: 'permission denied' } }))
          ?.reason,
      ).toBe('http_status:404');
      expect(
        classify(
          outcome({ call: { effect: 'read' }, error: { httpStatus: 400, message: 'permission denied for table x' } }),
        ),
      ).toMatchObject({
        failureClass: 'permission',
        reason: 'message:permission_denied',
      });
    });

    it('never lets a phrase change what a reply proves: a 500 saying "connection refused" was still sent', () => {
      const c = classify(
        outcome({
          call: { effect: 'write' },
          error: { httpStatus: 500, message: 'upstream: connect ECONNREFUSED 10.0.0.5:5432' },
        }),
      );
      expect(c).toMatchObject({ failureClass: 'ambiguous_effect', sideEffect: { value: true } });
    });

    it('does not take an errno inside a reply as proof the request stayed home', () => {
      const c = classify(
        outcome({ call: { effect: 'write' }, error: { jsonRpcCode: -32603, message: '{"code":"ECONNREFUSED"}' } }),
      );
      expect(c).toMatchObject({ failureClass: 'ambiguous_effect', sideEffect: { value: true } });
      expect(c?.sideEffect.evidence).toContain('reply_contradicts_not_sent');
    });

    it('does take a serialised Node error of our own as that proof', () => {
      const message = JSON.stringify({
        errno: -111,
        code: 'ECONNREFUSED',
        syscall: 'connect',
        address: '127.0.0.1',
        port: 443,
      });
      const c = classify(outcome({ call: { effect: 'write' }, error: { errno: 'ECONNREFUSED', message } }));
      expect(c).toMatchObject({ failureClass: 'transient', sideEffect: { value: false } });
    });

    it('falls back to "unrecognized_error", transient, effect unknown', () => {
      expect(
        classify(outcome({ call: { effect: 'read' }, error: { message: 'something odd happened' } })),
      ).toMatchObject({
        failureClass: 'transient',
        reason: 'unrecognized_error',
      });
      expect(
        classify(outcome({ call: { effect: 'write' }, error: { message: 'something odd happened' } }))?.failureClass,
      ).toBe('ambiguous_effect');
    });
  });
});
