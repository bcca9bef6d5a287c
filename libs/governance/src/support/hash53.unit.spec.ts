import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hash53, hash53Of } from './hash53.js';

describe('hash53', () => {
  it('keeps the published cyrb53 values (backoff seeds and argument fingerprints depend on them)', () => {
    // The values the single-string loop gave before hash53Of existed (seed 0).
    expect(hash53('')).toBe(3338908027751811);
    expect(hash53('a')).toBe(7929297801672961);
  });

  it('hash53Of(head, tail) is hash53(head + tail), bit for bit, for any strings and seeds', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.string({ unit: 'binary' }), fc.integer(), (head, tail, seed) => {
        expect(hash53Of(head, tail, seed)).toBe(hash53(head + tail, seed));
      }),
      { numRuns: 500 },
    );
  });
});
