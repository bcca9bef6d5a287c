import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { argumentsFingerprint, canonicalJson } from './canonical-json.js';

describe('canonicalJson', () => {
  it('sorts keys at every depth', () => {
    expect(canonicalJson({ b: 1, a: { d: [{ z: 1, y: 2 }], c: null } })).toBe(
      '{"a":{"c":null,"d":[{"y":2,"z":1}]},"b":1}',
    );
  });

  it('drops undefined members and writes undefined array items as null, like JSON.stringify', () => {
    expect(canonicalJson({ a: undefined, b: [undefined, 1] })).toBe('{"b":[null,1]}');
  });

  it('parses back to the same value for any JSON value', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(JSON.parse(canonicalJson(value))).toEqual(JSON.parse(JSON.stringify(value)));
      }),
    );
  });
});

describe('argumentsFingerprint: "structurally changed" means different canonical JSON', () => {
  it('ignores key order and whitespace', () => {
    expect(argumentsFingerprint({ sql: 'SELECT 1', limit: 10 })).toBe(
      argumentsFingerprint(JSON.parse('{ "limit": 10,  "sql": "SELECT 1" }')),
    );
  });

  it('sees a changed value, type, or shape', () => {
    const base = argumentsFingerprint({ date: '2024-13-01', limit: 10 });
    expect(argumentsFingerprint({ date: '2024-12-01', limit: 10 })).not.toBe(base);
    expect(argumentsFingerprint({ date: '2024-13-01', limit: '10' })).not.toBe(base);
    expect(argumentsFingerprint({ date: '2024-13-01', limit: 10, tz: 'UTC' })).not.toBe(base);
  });
});

describe('canonicalJson writes exactly what JSON.stringify writes once keys are sorted', () => {
  const sortedDeep = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(sortedDeep);
    if (value === null || typeof value !== 'object') return value;
    // fromEntries defines own properties, so a "__proto__" member stays a member instead of setting the prototype.
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((name) => [name, sortedDeep((value as Record<string, unknown>)[name])]),
    );
  };

  it('for any JSON value, with any string content (quotes, controls, lone surrogates)', () => {
    fc.assert(
      fc.property(fc.jsonValue({ stringUnit: 'binary' }), (value) => {
        expect(canonicalJson(value)).toBe(JSON.stringify(sortedDeep(value)));
      }),
      { numRuns: 500 },
    );
  });

  it('for non-finite numbers, -0, and members JSON drops', () => {
    const value = { a: NaN, b: -0, c: Infinity, d: () => 1, e: undefined, f: [undefined, () => 1, 'x\u2028y'] };
    expect(canonicalJson(value)).toBe(JSON.stringify(sortedDeep(value)));
  });
});
