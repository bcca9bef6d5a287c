import fc from 'fast-check';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { sqlIntArray, sqlLiteral, sqlTextArray } from './sql-literal.js';

const escapeLiteral = (value: string): string =>
  (pg as unknown as { escapeLiteral: (v: string) => string }).escapeLiteral(value);

describe('sqlLiteral', () => {
  it.each([
    ['plain', "'plain'"],
    ['', "''"],
    ["O'Brien", "'O''Brien'"],
    ["''", "''''''"],
    ['a\\b', " E'a\\\\b'"],
    ["it's a\\path", " E'it''s a\\\\path'"],
    ['{"k":"v\\"q"}', ` E'{"k":"v\\\\"q"}'`],
  ])('given %j, writes %s', (value, literal) => {
    expect(sqlLiteral(value)).toBe(literal);
  });

  it('writes what node-postgres escapeLiteral writes, for any text', () => {
    const text = fc.oneof(
      fc.string({ unit: 'binary' }),
      fc.string({ unit: fc.constantFrom("'", '\\', 'a', '"', 'E', ' ', '\u00e9', '\ud83d\ude00') }),
      fc.json(),
    );
    fc.assert(
      fc.property(text, (value) => sqlLiteral(value) === escapeLiteral(value)),
      { numRuns: 2_000 },
    );
  });
});

describe('sqlTextArray and sqlIntArray', () => {
  it('writes one literal, each element quoted, quotes and backslashes escaped', () => {
    expect(sqlTextArray(['a', 'b"c', 'd\\e', ''])).toBe(` E'{"a","b\\\\"c","d\\\\\\\\e",""}'::text[]`);
    expect(sqlTextArray([])).toBe(`'{}'::text[]`);
    expect(sqlTextArray(["O'Brien"])).toBe(`'{"O''Brien"}'::text[]`);
  });

  it('refuses a value holding U+0000 instead of cutting the statement short', () => {
    expect(() => sqlTextArray(['ok', 'a\u0000b'])).toThrow('U+0000');
  });

  it('refuses anything but integers in an int[]', () => {
    expect(sqlIntArray([1, -2])).toBe(`'{1,-2}'::int[]`);
    expect(() => sqlIntArray([Number.NaN])).toThrow('not an integer');
  });
});
