import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { appendBounded } from './bounded.js';

describe('appendBounded', () => {
  it('given any list and bound, keeps the newest `max` of the list with the item appended, and leaves the list as it was', () => {
    fc.assert(
      fc.property(
        fc.array(fc.string(), { maxLength: 30 }),
        fc.string(),
        fc.integer({ min: 1, max: 25 }),
        (items, item, max) => {
          const before = [...items];
          const next = appendBounded(items, item, max);
          expect(next).toEqual([...items, item].slice(-max));
          expect(items).toEqual(before);
          expect(next).not.toBe(items);
        },
      ),
    );
  });
});
