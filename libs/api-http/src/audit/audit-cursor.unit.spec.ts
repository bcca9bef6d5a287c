import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { InvalidRequestError } from '../http/api-errors.js';
import { decodeCursor, encodeCursor } from './audit-cursor.js';

describe('audit cursor', () => {
  it('round-trips every position in both orders', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }),
        fc.constantFrom('asc' as const, 'desc' as const),
        (seq, order) => {
          expect(decodeCursor(encodeCursor({ seq, order }), order)).toEqual({ seq, order });
        },
      ),
    );
  });

  it('is opaque: URL-safe and not the bare number', () => {
    const token = encodeCursor({ seq: 1234, order: 'desc' });
    expect(token).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(token).not.toContain('1234');
  });

  it('refuses tokens it did not issue, naming the cursor parameter', () => {
    for (const token of [
      '',
      'abc',
      '1234',
      Buffer.from('v1:desc:0').toString('base64url'),
      Buffer.from('v2:desc:5').toString('base64url'),
      'x'.repeat(200),
    ]) {
      expect(() => decodeCursor(token, 'desc')).toThrow(InvalidRequestError);
    }
    try {
      decodeCursor('garbage!', 'desc');
    } catch (error) {
      expect(error).toMatchObject({ code: 'invalid_cursor', field: 'cursor', status: 400 });
    }
  });

  it('refuses a cursor of the other order: it would skip or repeat rows', () => {
    const token = encodeCursor({ seq: 10, order: 'asc' });
    expect(() => decodeCursor(token, 'desc')).toThrow(/continues a listing in asc order/);
  });
});
