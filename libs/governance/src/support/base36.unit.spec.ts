import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { base36 } from './base36.js';

describe('base36 writes what toString(36) writes', () => {
  it.each([0, 1, 35, 36, 1295, 1296, 2 ** 32, 2 ** 53 - 1, -1, 1.5, 2 ** 53, NaN, Infinity])('%d', (n) => {
    expect(base36(n)).toBe(n.toString(36));
  });

  it('for any safe integer', () => {
    fc.assert(
      fc.property(fc.maxSafeNat(), (n) => {
        expect(base36(n)).toBe(n.toString(36));
      }),
      { numRuns: 5000 },
    );
  });
});
