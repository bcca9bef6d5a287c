import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { messageBytes, sizeBoundedRequests } from './size-bounded-requests.js';

describe('sizeBoundedRequests', () => {
  it('keeps every item once, in order, and no request over the limit unless an item alone is', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 3_000 }), { maxLength: 200 }),
        fc.integer({ min: 1, max: 2_000 }),
        (sizes, max) => {
          const requests = [
            ...sizeBoundedRequests(
              sizes.map((size, index) => ({ size, index })),
              (i) => i.size,
              max,
            ),
          ];
          expect(requests.flat().map((i) => i.index)).toEqual(sizes.map((_, index) => index));
          for (const request of requests) {
            expect(request.length).toBeGreaterThan(0);
            const total = request.reduce((sum, i) => sum + i.size, 0);
            if (request.length > 1) expect(total).toBeLessThanOrEqual(max);
          }
          // Greedy: a request is cut only when the next item would not fit.
          for (let r = 0; r + 1 < requests.length; r++) {
            const total = requests[r]!.reduce((sum, i) => sum + i.size, 0);
            expect(total + requests[r + 1]![0]!.size).toBeGreaterThan(max);
          }
        },
      ),
    );
  });

  it('gives no request for no items', () => {
    expect([...sizeBoundedRequests([], () => 1)]).toEqual([]);
  });
});

describe('messageBytes', () => {
  it('counts key, value and headers in UTF-8 bytes', () => {
    const plain = messageBytes({ key: null, value: null });
    expect(messageBytes({ key: 'é', value: Buffer.alloc(10), headers: { h: 'ü', list: ['a', Buffer.alloc(3)] } })).toBe(
      plain + 2 + 10 + 1 + 2 + 4 + 1 + 3,
    );
  });
});
