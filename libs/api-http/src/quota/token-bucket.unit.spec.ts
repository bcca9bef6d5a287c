import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TokenBuckets } from './token-bucket.js';

describe('token buckets', () => {
  it('lets a burst through, then refuses with the wait until one token is back', () => {
    const buckets = new TokenBuckets({ perSecond: 2, burst: 3 });
    for (let i = 0; i < 3; i++) expect(buckets.take('acme', 1, 0)).toEqual({ allowed: true });
    expect(buckets.take('acme', 1, 0)).toEqual({ allowed: false, retryAfterMs: 500 });
    expect(buckets.take('acme', 1, 499).allowed).toBe(false);
    expect(buckets.take('acme', 1, 500)).toEqual({ allowed: true });
  });

  it('keeps tenants apart: one tenant emptying its bucket leaves the other full', () => {
    const buckets = new TokenBuckets({ perSecond: 1, burst: 2 });
    buckets.take('acme', 2, 0);
    expect(buckets.take('acme', 1, 0).allowed).toBe(false);
    expect(buckets.take('globex', 2, 0)).toEqual({ allowed: true });
  });

  it('charges a cost (events of a batch) and refuses what does not fit without taking anything', () => {
    const buckets = new TokenBuckets({ perSecond: 10, burst: 10 });
    expect(buckets.take('acme', 8, 0).allowed).toBe(true);
    expect(buckets.take('acme', 5, 0)).toEqual({ allowed: false, retryAfterMs: 300 });
    expect(buckets.take('acme', 2, 0).allowed).toBe(true);
  });

  it('refills nothing when the clock steps back, and never beyond the burst', () => {
    const buckets = new TokenBuckets({ perSecond: 1, burst: 2 });
    buckets.take('acme', 2, 10_000);
    expect(buckets.take('acme', 1, 0).allowed).toBe(false);
    expect(buckets.take('acme', 1, 5_000).allowed).toBe(false);
    expect(buckets.take('acme', 2, 10_000_000).allowed).toBe(true);
    expect(buckets.take('acme', 1, 10_000_000).allowed).toBe(false);
  });

  it('charges a cost learnt after the work into debt: the next takes wait until it is refilled', () => {
    const buckets = new TokenBuckets({ perSecond: 10, burst: 10 });
    buckets.charge('acme', 30, 0);
    expect(buckets.take('acme', 1, 0)).toEqual({ allowed: false, retryAfterMs: 2_100 });
    expect(buckets.take('acme', 1, 2_100)).toEqual({ allowed: true });
    expect(buckets.take('globex', 10, 0)).toEqual({ allowed: true });
  });

  it('refuses a quota that could never admit anything', () => {
    expect(() => new TokenBuckets({ perSecond: 0, burst: 1 })).toThrow(RangeError);
    expect(() => new TokenBuckets({ perSecond: 1, burst: 0 })).toThrow(RangeError);
  });

  // The guarantee quotas exist for: over any span, a tenant gets at most burst + rate × span, whatever it sends.
  it('admits at most burst + perSecond × elapsed over any sequence of takes', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1000 }),
        fc.integer({ min: 1, max: 500 }),
        fc.array(fc.tuple(fc.integer({ min: 0, max: 2_000 }), fc.integer({ min: 1, max: 50 })), { maxLength: 300 }),
        (perSecond, burst, steps) => {
          const buckets = new TokenBuckets({ perSecond, burst });
          let now = 0;
          let admitted = 0;
          for (const [advance, cost] of steps) {
            now += advance;
            const take = buckets.take('t', cost, now);
            if (take.allowed) admitted += cost;
            else expect(take.retryAfterMs).toBeGreaterThan(0);
            expect(admitted).toBeLessThanOrEqual(burst + (perSecond * now) / 1000 + 1e-6);
          }
        },
      ),
    );
  });

  it('after a refusal, waiting retryAfterMs is enough for the same cost', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1000 }),
        fc.integer({ min: 1, max: 100 }),
        fc.array(fc.integer({ min: 1, max: 100 }), { minLength: 1, maxLength: 50 }),
        (perSecond, burst, costs) => {
          const buckets = new TokenBuckets({ perSecond, burst });
          for (const cost of costs.map((c) => Math.min(c, burst))) {
            const take = buckets.take('t', cost, 0);
            if (!take.allowed) {
              expect(buckets.take('t', cost, take.retryAfterMs).allowed).toBe(true);
              return;
            }
          }
        },
      ),
    );
  });
});
