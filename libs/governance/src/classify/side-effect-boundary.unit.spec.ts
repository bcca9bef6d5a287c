import { describe, expect, it } from 'vitest';
import { callEffect } from './call-effect.js';
import { sideEffectBoundary } from './side-effect-boundary.js';
import { outcome } from './spec-support/outcome.js';

const boundaryOf = (spec: Parameters<typeof outcome>[0]) => {
  const o = outcome(spec);
  return sideEffectBoundary(o.call, o);
};

describe('callEffect: what a call could do', () => {
  it("takes the declared effect as the author's word", () => {
    expect(callEffect(outcome({ call: { effect: 'write', httpMethod: 'GET' } }).call).kind).toBe('non_idempotent');
    expect(callEffect(outcome({ call: { effect: 'idempotent_write', httpMethod: 'POST' } }).call).kind).toBe(
      'idempotent',
    );
    expect(callEffect(outcome({ call: { effect: 'read', httpMethod: 'POST' } }).call).kind).toBe('none');
  });

  it('lets a write SQL verb override a declared read', () => {
    const effect = callEffect(outcome({ call: { effect: 'read', sqlStatement: 'DELETE FROM t' } }).call);
    expect(effect).toEqual({
      kind: 'non_idempotent',
      evidence: ['declared_effect:read', 'sql_verb:DELETE', 'sql_overrides_declared_read'],
    });
  });

  it('uses RFC 9110 method semantics when the effect is undeclared', () => {
    const kindFor = (httpMethod: string) => callEffect(outcome({ call: { httpMethod } }).call).kind;
    expect([kindFor('GET'), kindFor('PUT'), kindFor('POST'), kindFor('PURGE')]).toEqual([
      'none',
      'idempotent',
      'non_idempotent',
      'non_idempotent',
    ]);
  });

  it('assumes a non-idempotent write when nothing is known', () => {
    expect(callEffect(outcome().call)).toEqual({ kind: 'non_idempotent', evidence: ['declared_effect:unknown'] });
  });

  it('takes an unknown SQL verb (CALL) as a possible write', () => {
    expect(callEffect(outcome({ call: { sqlStatement: 'CALL do_things()' } }).call).kind).toBe('non_idempotent');
  });
});

describe('sideEffectBoundary', () => {
  it('never crosses for a read-only call', () => {
    expect(
      boundaryOf({ call: { effect: 'read' }, dispatch: { requestSent: true }, error: { errno: 'ECONNRESET' } }),
    ).toEqual({
      value: false,
      evidence: ['declared_effect:read', 'read_only:cannot_mutate'],
    });
  });

  it('never crosses for a request proven not sent', () => {
    const b = boundaryOf({ call: { effect: 'write' }, dispatch: { requestSent: false }, error: { httpStatus: 504 } });
    expect(b).toEqual({ value: false, evidence: ['declared_effect:write', 'dispatch:not_sent'] });
  });

  it('tells connect refused from a timeout after send', () => {
    expect(boundaryOf({ call: { effect: 'write' }, error: { errno: 'ECONNREFUSED' } }).value).toBe(false);
    expect(
      boundaryOf({
        call: { effect: 'write' },
        error: { errno: 'ETIMEDOUT', message: 'connect ETIMEDOUT 10.0.0.1:443' },
      }).value,
    ).toBe(false);
    expect(
      boundaryOf({ call: { effect: 'write' }, error: { errno: 'ETIMEDOUT', message: 'read ETIMEDOUT' } }).value,
    ).toBe(true);
  });

  it('trusts the producer that saw the request leave over a connect-phase error', () => {
    const b = boundaryOf({
      call: { effect: 'write' },
      dispatch: { requestSent: true },
      error: { errno: 'ECONNREFUSED' },
    });
    expect(b.value).toBe(true);
    expect(b.evidence).toContain('dispatch:sent_despite_connect_error');
  });

  it('records a received response and a definite refusal', () => {
    const b = boundaryOf({
      call: { httpMethod: 'POST' },
      dispatch: { requestSent: true, responseReceived: true },
      error: { httpStatus: 422 },
    });
    expect(b).toEqual({
      value: false,
      evidence: [
        'declared_effect:unknown',
        'http_method:POST',
        'dispatch:request_sent',
        'dispatch:response_received',
        'reply:rejected_before_effect',
      ],
    });
  });

  it('crosses for an idempotent write with an unknown effect, and marks the repeat safe', () => {
    const b = boundaryOf({ call: { httpMethod: 'DELETE', idempotencyKey: 'k' }, error: { httpStatus: 502 } });
    expect(b.value).toBe(true);
    expect(b.evidence).toEqual(
      expect.arrayContaining(['effect:unknown', 'retry_safe:idempotent', 'idempotency_key:present']),
    );
  });

  it('notes a duplicate-looking refusal on a retry as evidence the earlier attempt landed', () => {
    const b = boundaryOf({ call: { effect: 'write', attempt: 3 }, error: { sqlState: '23505' } });
    expect(b.value).toBe(false);
    expect(b.evidence).toContain('duplicate_on_retry:earlier_attempt_may_have_applied');
    expect(boundaryOf({ call: { effect: 'write', attempt: 1 }, error: { sqlState: '23505' } }).evidence).not.toContain(
      'duplicate_on_retry:earlier_attempt_may_have_applied',
    );
  });

  it('reports a succeeded write as having mutated', () => {
    expect(boundaryOf({ call: { effect: 'write' }, status: 'succeeded' })).toEqual({
      value: true,
      evidence: ['declared_effect:write', 'outcome:succeeded'],
    });
  });
});
