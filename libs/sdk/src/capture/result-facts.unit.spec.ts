import { describe, expect, it } from 'vitest';
import { resultFacts } from './result-facts.js';

describe('resultFacts: is a successful result empty?', () => {
  it.each([
    ['null', null, { empty: true, rowCount: null }],
    ['an empty array', [], { empty: true, rowCount: 0 }],
    ['an empty plain object', {}, { empty: true, rowCount: null }],
    ['a node-postgres result with no rows', { rows: [], rowCount: 0, command: 'SELECT' }, { empty: true, rowCount: 0 }],
    ['rows', { rows: [{ id: 1 }, { id: 2 }], rowCount: 2 }, { empty: false, rowCount: 2 }],
    ['an array of items', [1, 2, 3], { empty: false, rowCount: 3 }],
    ['an UPDATE result (rowCount = affected rows)', { rowCount: 4, command: 'UPDATE' }, { empty: false, rowCount: 4 }],
    ['a string', 'ok', { empty: false, rowCount: null }],
    ['zero (a count is an answer, not an empty result)', 0, { empty: false, rowCount: null }],
    ['undefined (a write that returns nothing says nothing)', undefined, { empty: null, rowCount: null }],
    ['an empty Map instance (not a plain object)', new Map(), { empty: false, rowCount: null }],
  ])('%s', (_label, result, expected) => {
    expect(resultFacts(result)).toEqual(expected);
  });

  it("uses the tool's own emptiness test when given, and refuses one that does not answer true/false/null", () => {
    const search = { hits: [], total: 0 };
    expect(resultFacts(search).empty).toBe(false);
    expect(resultFacts(search, (r) => (r as typeof search).total === 0).empty).toBe(true);
    expect(() => resultFacts(search, () => 'yes' as never)).toThrow(
      /isEmpty must return true, false or null, got string/,
    );
  });
});
