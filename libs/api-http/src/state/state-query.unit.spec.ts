import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InvalidRequestError } from '../http/api-errors.js';
import { decodeStateCursor, encodeStateCursor } from './state-cursor.js';
import { parseStateQuery } from './state-query.js';

describe('GET /v1/state query', () => {
  it('round-trips any cursor it issues: microseconds and key ids with any characters but a line break', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: -(10n ** 16n), max: 10n ** 16n }),
        fc.string({ minLength: 1, maxLength: 300, unit: 'grapheme' }).filter((s) => !s.includes('\n')),
        (micros, keyId) => {
          const cursor = { updatedMicros: micros.toString(), keyId };
          expect(decodeStateCursor(encodeStateCursor(cursor))).toEqual(cursor);
        },
      ),
    );
  });

  it('refuses a cursor it did not issue', () => {
    for (const token of ['', 'abc', Buffer.from('v1\n12x\nk').toString('base64url'), 'v1:desc:5', '@@@']) {
      expect(() => decodeStateCursor(token), token).toThrow(InvalidRequestError);
    }
  });

  it('parses every filter and the cursor into the listing storage reads', () => {
    const query = parseStateQuery({
      blocked: 'true',
      principal: "svc' OR 1=1 --",
      tool: 'sql_query',
      class: 'permission',
      scope: 'fleet',
      run: 'r-1',
      limit: '5',
      cursor: encodeStateCursor({ updatedMicros: '1767607200000000', keyId: 'k' }),
    });
    expect(query).toEqual({
      filter: {
        blocked: true,
        status: null,
        principal: "svc' OR 1=1 --",
        tool: 'sql_query',
        failureClass: 'permission',
        scope: 'fleet',
        run: 'r-1',
      },
      after: { updatedMicros: '1767607200000000', keyId: 'k' },
      limit: 5,
    });
  });

  it('names the parameter of the first problem', () => {
    const fieldOf = (raw: unknown) => {
      try {
        parseStateQuery(raw);
        return null;
      } catch (error) {
        return (error as InvalidRequestError).field;
      }
    };
    expect(fieldOf({ tenant: 'other' })).toBe('tenant');
    expect(fieldOf({ blocked: '1' })).toBe('blocked');
    expect(fieldOf({ limit: '501' })).toBe('limit');
    expect(fieldOf({ scope: 'global' })).toBe('scope');
    expect(fieldOf({})).toBeNull();
  });
});
