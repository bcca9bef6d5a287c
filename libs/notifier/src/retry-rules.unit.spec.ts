import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { breakerAllowance, breakerFailure, breakerSuccess, breakerTrial, CLOSED } from './circuit-breaker.js';
import { outcomeOfResponse, parseRetryAfter } from './response-outcome.js';
import { retryDelayMs } from './retry-backoff.js';

const policy = { maxAttempts: 8, baseDelayMs: 1_000, maxDelayMs: 300_000, maxRetryAfterMs: 3_600_000 };
const now = new Date('2026-12-01T10:00:00.000Z');

describe('response outcomes', () => {
  it('sends on 2xx, retries 408/425/429/5xx, gives up on any other status', () => {
    expect(outcomeOfResponse(202, null, now).kind).toBe('sent');
    for (const status of [408, 425, 429, 500, 502, 503])
      expect(outcomeOfResponse(status, null, now).kind).toBe('retriable');
    for (const status of [400, 401, 403, 404, 410, 413, 422])
      expect(outcomeOfResponse(status, null, now).kind).toBe('permanent');
  });

  it('reads Retry-After as seconds or an HTTP date', () => {
    expect(parseRetryAfter('120', now)).toBe(120_000);
    expect(parseRetryAfter('Tue, 01 Dec 2026 10:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('Tue, 01 Dec 2026 09:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeNull();
    expect(outcomeOfResponse(429, '7', now)).toMatchObject({ kind: 'retriable', retryAfterMs: 7_000 });
  });
});

describe('retry delay', () => {
  it('is full jitter under a doubling ceiling, never before Retry-After (up to its cap)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 40 }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        fc.option(fc.integer({ min: 0, max: 10 * 3_600_000 }), { nil: null }),
        (attempt, random, retryAfter) => {
          const delay = retryDelayMs(attempt, retryAfter, policy, random);
          const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
          expect(delay).toBeGreaterThanOrEqual(0);
          if (retryAfter === null) expect(delay).toBeLessThanOrEqual(ceiling);
          else {
            expect(delay).toBeGreaterThanOrEqual(Math.min(retryAfter, policy.maxRetryAfterMs));
            expect(delay).toBeLessThanOrEqual(Math.max(ceiling, policy.maxRetryAfterMs));
          }
        },
      ),
    );
  });

  it('spreads retries: two receivers failing together do not retry together', () => {
    expect(retryDelayMs(3, null, policy, 0.1)).not.toBe(retryDelayMs(3, null, policy, 0.9));
  });
});

describe('circuit breaker', () => {
  const breaker = { failureThreshold: 3, cooldownMs: 10_000 };
  it('opens after consecutive failures, lets one trial through after the cooldown, closes on success', () => {
    let state = CLOSED;
    state = breakerFailure(state, 0, breaker);
    state = breakerFailure(state, 1, breaker);
    expect(breakerAllowance(state, 2)).toBe('all');
    state = breakerFailure(state, 2, breaker);
    expect(state).toEqual({ status: 'open', until: 10_002, failures: 3 });
    expect(breakerAllowance(state, 10_001)).toBe('none');
    expect(breakerAllowance(state, 10_002)).toBe('one');
    state = breakerTrial(state);
    expect(breakerAllowance(state, 10_003)).toBe('none');
    const reopened = breakerFailure(state, 10_500, breaker);
    expect(reopened).toEqual({ status: 'open', until: 20_500, failures: 4 });
    expect(breakerSuccess()).toEqual(CLOSED);
  });

  it('a success between failures starts the count again', () => {
    const state = breakerFailure(breakerSuccess(), 0, breaker);
    expect(breakerFailure(state, 0, breaker)).toEqual({ status: 'closed', failures: 2 });
  });
});
