import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cutText, cutTextStart } from './cut-text.js';

const loneSurrogate = (text: string): boolean =>
  /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(text);

describe('cutText / cutTextStart', () => {
  it('leave short text alone and mark a cut with …', () => {
    expect(cutText('refund', 6)).toBe('refund');
    expect(cutText('refunds', 6)).toBe('refun…');
    expect(cutTextStart('payments-api:/v1/refunds', 10)).toBe('…1/refunds');
  });

  it('never split a surrogate pair', () => {
    // "a" then three emoji (two code units each): a cut at 3 would keep half of the first one.
    expect(cutText('a😀😀😀', 3)).toBe('a…');
    expect(cutTextStart('😀😀😀b', 3)).toBe('…b');
  });

  it('any text, any length: at most max code units, no lone surrogate made, a prefix (or suffix) kept', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 60 }), fc.integer({ min: 1, max: 70 }), (text, max) => {
        for (const [cut, keep] of [
          [cutText(text, max), (c: string) => text.startsWith(c.endsWith('…') && c !== text ? c.slice(0, -1) : c)],
          [cutTextStart(text, max), (c: string) => text.endsWith(c.startsWith('…') && c !== text ? c.slice(1) : c)],
        ] as const) {
          expect(cut.length).toBeLessThanOrEqual(max);
          if (!loneSurrogate(text)) expect(loneSurrogate(cut)).toBe(false);
          expect(keep(cut)).toBe(true);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('refuses a limit that is not a positive integer', () => {
    expect(() => cutText('x', 0)).toThrow(RangeError);
    expect(() => cutTextStart('x', 1.5)).toThrow(RangeError);
  });
});
