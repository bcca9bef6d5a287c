import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson, CanonicalJsonError } from './canonical-json.js';

const LENIENT = { lenient: true } as const;

describe('canonicalJson (RFC 8785 style, strict: what the audit hash chain hashes)', () => {
  it('reproduces the RFC 8785 §3.2.2 example byte for byte', () => {
    // The input and expected output are the RFC's own text.
    const input = JSON.parse(String.raw`{
      "numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001],
      "string": "\u20ac$\u000F\u000aA'\u0042\u0022\u005c\\\"\/",
      "literals": [null, true, false]
    }`) as unknown;
    expect(canonicalJson(input)).toBe(
      String.raw`{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"string":"€$\u000f\nA'B\"\\\\\"/"}`,
    );
  });

  it('orders members by UTF-16 code units, as the RFC 8785 §3.2.3 sorting example does', () => {
    const input = JSON.parse(String.raw`{
      "\u20ac": "Euro Sign", "\r": "Carriage Return", "\ufb33": "Hebrew Letter Dalet With Dagesh",
      "1": "One", "\ud83d\ude00": "Emoji: Grinning Face", "\u0080": "Control", "\u00f6": "Latin Small Letter O With Diaeresis"
    }`) as Record<string, string>;
    // Read the order from the text: JSON.parse would move the integer-like key "1" first.
    const textOrder = [...canonicalJson(input).matchAll(/":"([^"]+)"/g)].map((m) => m[1]);
    expect(textOrder).toEqual([
      'Carriage Return',
      'One',
      'Control',
      'Latin Small Letter O With Diaeresis',
      'Euro Sign',
      'Emoji: Grinning Face',
      'Hebrew Letter Dalet With Dagesh',
    ]);
  });

  it('gives the same text whatever order the keys were written in', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), (record) => {
        const reversed = Object.fromEntries(Object.entries(record).reverse());
        expect(canonicalJson(reversed)).toBe(canonicalJson(record));
      }),
    );
  });

  it('is valid JSON that parses back to the same data', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        // JSON has no -0; canonical form writes it as 0, like JSON.stringify.
        expect(JSON.parse(canonicalJson(value))).toEqual(JSON.parse(JSON.stringify(value)));
      }),
    );
  });

  it('has no insignificant whitespace', () => {
    expect(canonicalJson({ b: [1, { d: 'x y', c: null }], a: true })).toBe('{"a":true,"b":[1,{"c":null,"d":"x y"}]}');
  });

  it('drops undefined members, as JSON (and jsonb) would', () => {
    expect(canonicalJson({ a: 1, b: undefined })).toBe('{"a":1}');
  });

  it.each([
    ['NaN', { n: Number.NaN }, '$.n is NaN'],
    ['Infinity', [Number.POSITIVE_INFINITY], '$[0] is Infinity'],
    ['undefined in an array', [1, undefined], '$[1] is undefined'],
    ['a Date', { at: new Date(0) }, '$.at is a Date'],
    ['a bigint', { n: 1n }, '$.n is bigint'],
    ['a function', { f: () => 1 }, '$.f is function'],
    ['a lone surrogate', { s: '\ud800' }, '$.s contains a lone UTF-16 surrogate'],
  ])('refuses %s with an error naming the path', (_name, value, message) => {
    expect(() => canonicalJson(value)).toThrow(CanonicalJsonError);
    expect(() => canonicalJson(value)).toThrow(message);
  });

  it('refuses cycles instead of overflowing the stack', () => {
    const looped: Record<string, unknown> = { a: 1 };
    looped.self = looped;
    expect(() => canonicalJson(looped)).toThrow('$.self refers to itself');
  });

  it('accepts the same object twice when it is not a cycle', () => {
    const shared = { x: 1 };
    expect(canonicalJson({ a: shared, b: shared })).toBe('{"a":{"x":1},"b":{"x":1}}');
  });
});

describe('canonicalJson lenient mode: what JSON.stringify would write', () => {
  it('sorts keys at every depth', () => {
    expect(canonicalJson({ b: 1, a: { d: [{ z: 1, y: 2 }], c: null } }, LENIENT)).toBe(
      '{"a":{"c":null,"d":[{"y":2,"z":1}]},"b":1}',
    );
  });

  it('drops undefined members and writes undefined array items as null, like JSON.stringify', () => {
    expect(canonicalJson({ a: undefined, b: [undefined, 1] }, LENIENT)).toBe('{"b":[null,1]}');
  });

  it('parses back to the same value for any JSON value', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(JSON.parse(canonicalJson(value, LENIENT))).toEqual(JSON.parse(JSON.stringify(value)));
      }),
    );
  });
});

describe('canonicalJson lenient mode writes exactly what JSON.stringify writes once keys are sorted', () => {
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
        expect(canonicalJson(value, LENIENT)).toBe(JSON.stringify(sortedDeep(value)));
      }),
      { numRuns: 500 },
    );
  });

  it('for non-finite numbers, -0, and members JSON drops', () => {
    const value = { a: NaN, b: -0, c: Infinity, d: () => 1, e: undefined, f: [undefined, () => 1, 'x\u2028y'] };
    expect(canonicalJson(value, LENIENT)).toBe(JSON.stringify(sortedDeep(value)));
  });
});
