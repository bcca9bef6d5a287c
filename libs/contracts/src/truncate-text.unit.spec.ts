import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { truncateText } from './truncate-text.js';

const wellFormed = (s: string) => !/\p{Surrogate}/u.test(s);

describe('truncateText: at most n UTF-16 units, never half a surrogate pair', () => {
  it('keeps short text, cuts long text, and leaves out a pair that does not fit whole', () => {
    expect(truncateText('abc', 5)).toBe('abc');
    expect(truncateText('abcdef', 3)).toBe('abc');
    expect(truncateText('ab\u{1F600}cd', 3)).toBe('ab');
    expect(truncateText('ab\u{1F600}cd', 4)).toBe('ab\u{1F600}');
    expect(truncateText('\u{1F600}', 1)).toBe('');
    expect(truncateText('abc', 0)).toBe('');
  });

  it('over arbitrary text: a prefix, within the limit, at most one unit short, well-formed when the input is', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 40 }), fc.nat(45), (text, max) => {
        const cut = truncateText(text, max);
        expect(text.startsWith(cut)).toBe(true);
        expect(cut.length).toBeLessThanOrEqual(max);
        expect(cut.length).toBeGreaterThanOrEqual(Math.min(text.length, max) - 1);
        if (wellFormed(text)) expect(wellFormed(cut)).toBe(true);
      }),
    );
  });
});
