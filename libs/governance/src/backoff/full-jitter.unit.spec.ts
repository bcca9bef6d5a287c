import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fullJitterMs, jitterFraction } from './full-jitter.js';

describe('full jitter (AWS "Exponential Backoff And Jitter")', () => {
  it('stays within [0, min(cap, base * 2^attempt)]', () => {
    fc.assert(
      fc.property(
        fc.nat(40),
        fc.integer({ min: 1, max: 5000 }),
        fc.integer({ min: 1, max: 120_000 }),
        fc.string(),
        (attempt, base, capExtra, seed) => {
          const cap = base + capExtra;
          const delay = fullJitterMs(attempt, base, cap, jitterFraction(seed));
          expect(delay).toBeGreaterThanOrEqual(0);
          expect(delay).toBeLessThanOrEqual(Math.min(cap, base * 2 ** attempt));
          expect(Number.isInteger(delay)).toBe(true);
        },
      ),
    );
  });

  it('reaches both ends of the window', () => {
    expect(fullJitterMs(3, 500, 30_000, 0)).toBe(0);
    expect(fullJitterMs(3, 500, 30_000, 0.999_999_999)).toBe(4000);
    expect(fullJitterMs(10, 500, 30_000, 0.999_999_999)).toBe(30_000);
  });

  it('is the same for the same seed and spreads across seeds', () => {
    expect(jitterFraction('key@1')).toBe(jitterFraction('key@1'));
    const fractions = Array.from({ length: 2000 }, (_, i) => jitterFraction(`key-${i}`));
    const mean = fractions.reduce((a, b) => a + b, 0) / fractions.length;
    expect(Math.min(...fractions)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...fractions)).toBeLessThan(1);
    // A uniform fraction has mean 0.5 and sd 0.289/sqrt(2000) ≈ 0.0065; 0.03 is ~4.6 sd.
    expect(Math.abs(mean - 0.5)).toBeLessThan(0.03);
    const deciles = new Array(10).fill(0);
    for (const f of fractions) deciles[Math.floor(f * 10)] += 1;
    for (const count of deciles) expect(count).toBeGreaterThan(120);
  });
});
