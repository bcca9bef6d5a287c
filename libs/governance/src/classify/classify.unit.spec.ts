import { describe, expect, it } from 'vitest';
import { classify } from './classify.js';
import { outcome } from './spec-support/outcome.js';

describe('classify', () => {
  describe('successes', () => {
    it('returns null for a plain success', () => {
      expect(classify(outcome({ call: { effect: 'write' }, status: 'succeeded' }))).toBeNull();
    });

    it('flags an empty read result as ambiguous until a verifier says the empty is valid', () => {
      const c = classify(
        outcome({ call: { effect: 'read' }, status: 'succeeded', result: { empty: true, rowCount: 0 } }),
      );
      expect(c).toMatchObject({
        failureClass: 'ambiguous_effect',
        reason: 'empty_result_unverified',
        sideEffect: { value: false },
      });
    });

    it('reads rowCount 0 of a read as an empty result when the producer left "empty" unset', () => {
      const c = classify(
        outcome({
          call: { sqlStatement: 'SELECT * FROM t WHERE x = 1' },
          status: 'succeeded',
          result: { rowCount: 0 },
        }),
      );
      expect(c?.reason).toBe('empty_result_unverified');
    });

    it('trusts an explicit empty=false over rowCount', () => {
      expect(
        classify(outcome({ call: { effect: 'read' }, status: 'succeeded', result: { empty: false, rowCount: 0 } })),
      ).toBeNull();
    });

    it('does not flag an empty result of a write (an UPDATE matching no row is not a read)', () => {
      expect(
        classify(
          outcome({
            call: { sqlStatement: 'UPDATE t SET x = 1 WHERE id = 9' },
            status: 'succeeded',
            result: { rowCount: 0 },
          }),
        ),
      ).toBeNull();
    });
  });

  describe('the dispatched-write rule: unknown is not failed', () => {
    it('makes a timeout after sending a POST without idempotency key ambiguous_effect, not transient', () => {
      const c = classify(
        outcome({ call: { httpMethod: 'POST' }, dispatch: { requestSent: true }, error: { errno: 'ETIMEDOUT' } }),
      );
      expect(c).toMatchObject({
        failureClass: 'ambiguous_effect',
        reason: 'dispatched_write_without_idempotency_key',
        sideEffect: { value: true },
      });
      expect(c?.sideEffect.evidence).toEqual(
        expect.arrayContaining([
          'http_method:POST',
          'dispatch:request_sent',
          'effect:unknown',
          'error:errno:ETIMEDOUT',
        ]),
      );
    });

    it('keeps the same timeout transient on a GET, which cannot mutate', () => {
      const c = classify(outcome({ call: { httpMethod: 'GET' }, error: { errno: 'ETIMEDOUT' } }));
      expect(c).toMatchObject({ failureClass: 'transient', reason: 'errno:ETIMEDOUT', sideEffect: { value: false } });
    });

    it('keeps it transient when an idempotency key makes the repeat safe, and says why', () => {
      const c = classify(outcome({ call: { httpMethod: 'POST', idempotencyKey: 'k-1' }, error: { httpStatus: 504 } }));
      expect(c).toMatchObject({ failureClass: 'transient', sideEffect: { value: true } });
      expect(c?.sideEffect.evidence).toEqual(
        expect.arrayContaining(['idempotency_key:present', 'retry_safe:idempotency_key']),
      );
    });

    it('keeps it transient for an idempotent method (PUT) or a declared idempotent write', () => {
      expect(classify(outcome({ call: { httpMethod: 'PUT' }, error: { httpStatus: 504 } }))?.failureClass).toBe(
        'transient',
      );
      expect(
        classify(outcome({ call: { effect: 'idempotent_write' }, error: { errno: 'ECONNRESET' } }))?.failureClass,
      ).toBe('transient');
    });

    it('classifies an error that proves nothing was sent by its own meaning', () => {
      const c = classify(
        outcome({
          call: { effect: 'write' },
          error: { errno: 'ECONNREFUSED', message: 'connect ECONNREFUSED 10.0.0.1:443' },
        }),
      );
      expect(c).toMatchObject({
        failureClass: 'transient',
        reason: 'errno:ECONNREFUSED',
        sideEffect: { value: false },
      });
    });

    it('classifies a definite refusal of a write by its own meaning (400 is validation, not ambiguous)', () => {
      expect(classify(outcome({ call: { effect: 'write' }, error: { httpStatus: 400 } }))?.failureClass).toBe(
        'validation',
      );
      expect(classify(outcome({ call: { effect: 'write' }, error: { httpStatus: 429 } }))?.failureClass).toBe(
        'transient',
      );
    });

    it('does not call a rolled-back write ambiguous (deadlock, serialization failure)', () => {
      const c = classify(outcome({ call: { sqlStatement: 'UPDATE a SET b = b + 1' }, error: { sqlState: '40P01' } }));
      expect(c).toMatchObject({ failureClass: 'transient', sideEffect: { value: false } });
      expect(c?.sideEffect.evidence).toContain('sqlstate:rolled_back');
    });

    it('leaves permission and invariant classes alone on a maybe-applied write: they already stop', () => {
      const c = classify(outcome({ call: { effect: 'write' }, error: { grpcCode: 'DATA_LOSS' } }));
      expect(c).toMatchObject({
        failureClass: 'invariant_violation',
        reason: 'grpc:DATA_LOSS',
        sideEffect: { value: true },
      });
    });

    it('turns validation and missing_resource into ambiguous_effect too when the write may have landed', () => {
      const oversizedReply = classify(
        outcome({ call: { effect: 'write' }, error: { errno: 'UND_ERR_RES_EXCEEDED_MAX_SIZE' } }),
      );
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
      expect(classify(outcome({ call: { effect: 'read' }, status: 'unknown' }))).toMatchObject({
        failureClass: 'transient',
        reason: 'outcome_unknown',
      });
    });

    it('is transient for a write proven not sent', () => {
      const c = classify(outcome({ call: { effect: 'write' }, status: 'unknown', dispatch: { requestSent: false } }));
      expect(c).toMatchObject({ failureClass: 'transient', sideEffect: { value: false } });
    });
  });

  describe('bad input', () => {
    it('refuses a failed outcome without an error, naming the fix', () => {
      const bad = { ...outcome({ call: { effect: 'read' }, error: { httpStatus: 500 } }), error: null };
      expect(() => classify(bad)).toThrow(/failed outcome needs an error/);
    });

    it('refuses an unknown status', () => {
      const bad = { ...outcome({ status: 'succeeded' }), status: 'exploded' } as unknown as Parameters<
        typeof classify
      >[0];
      expect(() => classify(bad)).toThrow(/unknown outcome status "exploded"/);
    });
  });
});
