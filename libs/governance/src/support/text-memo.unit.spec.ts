import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { memoiseByText } from './text-memo.js';

describe('memoiseByText', () => {
  it('answers what the function answers, for any sequence of texts, with a table small enough to start over', () => {
    const compute = (text: string): string | null => (text.includes('x') ? null : `${text.length}:${text}`);
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 8 }), { maxLength: 200 }), (texts) => {
        const memo = memoiseByText(compute, 6, 5);
        for (const text of [...texts, ...texts]) expect(memo(text)).toBe(compute(text));
      }),
    );
  });

  it('computes a short text once (null answers included), a long one every time, and starts over when full', () => {
    const calls: string[] = [];
    const memo = memoiseByText(
      (text: string) => {
        calls.push(text);
        return text === 'none' ? null : { text };
      },
      10,
      3,
    );
    const first = memo('permission denied');
    expect(memo('permission denied')).not.toBe(first);
    expect(memo('a')).toBe(memo('a'));
    expect(memo('none')).toBeNull();
    expect(memo('none')).toBeNull();
    expect(calls).toEqual(['permission denied', 'permission denied', 'a', 'none']);
    memo('b');
    memo('c');
    memo('a');
    // 'a', 'none' and 'b' filled the table; 'c' started it over, so 'a' was computed again.
    expect(calls.slice(4)).toEqual(['b', 'c', 'a']);
  });
});
