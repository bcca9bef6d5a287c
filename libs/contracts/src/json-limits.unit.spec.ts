import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JsonLimitError, jsonTextTooDeep, jsonValueProblem, parseBoundedJson } from './json-limits.js';
import { LIMITS } from './limits.js';
import { thrown } from './spec-support/thrown.js';

const nested = (levels: number, inner = '1'): string => '['.repeat(levels) + inner + ']'.repeat(levels);
const nestedObject = (levels: number): unknown => {
  let value: unknown = 1;
  for (let i = 0; i < levels; i++) value = { a: value };
  return value;
};
/** Reference depth, recursive: fine for the small values fast-check makes. */
const depthOf = (value: unknown): number =>
  value === null || typeof value !== 'object'
    ? 0
    : 1 + Math.max(0, ...Object.values(value as Record<string, unknown>).map(depthOf));

describe('JSON nesting, judged without recursion', () => {
  it(`accepts ${LIMITS.jsonDepth} levels and refuses ${LIMITS.jsonDepth + 1}, on the text and on the value`, () => {
    expect(jsonTextTooDeep(nested(LIMITS.jsonDepth))).toBe(false);
    expect(jsonTextTooDeep(nested(LIMITS.jsonDepth + 1))).toBe(true);
    expect(jsonValueProblem(nestedObject(LIMITS.jsonDepth))).toBeNull();
    expect(jsonValueProblem(nestedObject(LIMITS.jsonDepth + 1))).toMatchObject({ code: 'too_deep' });
    expect(parseBoundedJson(nested(LIMITS.jsonDepth))).toBeInstanceOf(Array);
    expect(thrown(JsonLimitError, () => parseBoundedJson(nested(LIMITS.jsonDepth + 1))).code).toBe('too_deep');
  });

  it('handles 10,000 and 1,000,000 levels without overflowing the stack', () => {
    for (const levels of [10_000, 1_000_000]) {
      expect(jsonTextTooDeep(nested(levels))).toBe(true);
      expect(thrown(JsonLimitError, () => parseBoundedJson(nested(levels))).code).toBe('too_deep');
    }
    // A value built in memory (no text to scan) is walked iteratively too.
    expect(jsonValueProblem(nestedObject(100_000))).toMatchObject({ code: 'too_deep' });
  });

  it('does not count brackets inside strings, escaped quotes included', () => {
    const text = JSON.stringify({ s: '[[[[{{{{"\\"[[[[', t: ['\\', '"]]]]'] });
    expect(jsonTextTooDeep(text, 2)).toBe(false);
    expect(jsonTextTooDeep(text, 1)).toBe(true);
  });

  it('agrees with the recursive depth for any JSON value, on text and value alike', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 8 }), fc.integer({ min: 0, max: 9 }), (value, limit) => {
        const tooDeep = depthOf(value) > limit;
        expect(jsonTextTooDeep(JSON.stringify(value), limit)).toBe(tooDeep);
        expect(jsonValueProblem(value, limit)?.code === 'too_deep').toBe(tooDeep);
      }),
    );
  });
});

describe('JSON values every reader reads alike', () => {
  it('refuses a "__proto__" member anywhere, escaped or not, and names its path', () => {
    for (const text of ['{"__proto__":{"x":1}}', '{"a":[{"\\u005f_proto__":1}]}', '{"b":{"__proto__":null}}']) {
      const error = thrown(JsonLimitError, () => parseBoundedJson(text));
      expect(error.code, text).toBe('reserved_member');
    }
    expect(thrown(JsonLimitError, () => parseBoundedJson('{"a":[{"__proto__":1}]}')).path).toBe('a.0.__proto__');
    expect(parseBoundedJson('{"proto":1,"_proto_":2,"constructor":3}')).toEqual({
      proto: 1,
      _proto_: 2,
      constructor: 3,
    });
  });

  it('refuses numbers JSON.parse turns into Infinity, keeps the largest finite ones', () => {
    expect(thrown(JsonLimitError, () => parseBoundedJson('{"n":[1e400]}'))).toMatchObject({
      code: 'not_finite',
      path: 'n.0',
    });
    expect(thrown(JsonLimitError, () => parseBoundedJson(`[-${'9'.repeat(400)}]`)).code).toBe('not_finite');
    expect(parseBoundedJson('[1.7976931348623157e308, -0, 5e-324]')).toEqual([Number.MAX_VALUE, -0, 5e-324]);
  });

  it('reports malformed text as invalid_json', () => {
    expect(thrown(JsonLimitError, () => parseBoundedJson('{"a":')).code).toBe('invalid_json');
  });
});
