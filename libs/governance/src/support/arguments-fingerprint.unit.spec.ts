import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { argumentsFingerprint, argumentsFingerprintWithout } from './arguments-fingerprint.js';
import { base36 } from './base36.js';
import { canonicalJson } from './canonical-json.js';
import { hash53 } from './hash53.js';

/** What the fingerprint was defined as before the walk fed the hash directly: hash53 of the built canonical JSON. */
const builtFingerprint = (args: unknown): string => {
  const canonical = canonicalJson(args, { lenient: true });
  return `h:${base36(hash53(canonical))}:${canonical.length}`;
};

// Any JSON-ish value, plus what frameworks hand over: NaN, infinities, -0, undefined, Dates, functions,
// holes, lone surrogates, quotes, controls and large or fractional numbers.
const { leaf, tree } = fc.letrec((tie) => ({
  leaf: fc.oneof(
    fc.string({ unit: 'binary' }),
    fc.string(),
    fc.double(),
    fc.integer({ min: -2_000_000_000, max: 2_000_000_000 }),
    fc.constantFrom(0, -0, 1e9, 999_999_999, 1e21, 0.1, Number.NaN, Infinity, -Infinity),
    fc.boolean(),
    fc.constant(null),
    fc.constant(undefined),
    fc.constant(new Date(0)),
    fc.constant(() => 1),
  ),
  tree: fc.oneof(
    { depthSize: 'small' },
    tie('leaf'),
    fc.array(tie('tree'), { maxLength: 4 }),
    fc.sparseArray(tie('tree'), { maxLength: 4 }),
    fc.dictionary(fc.string({ unit: 'binary' }), tie('tree'), { maxKeys: 5 }),
  ),
}));
const record = fc.dictionary(fc.oneof(fc.string(), fc.constantFrom('ts', 'requestId', 'q')), tree, { maxKeys: 6 });

describe('argumentsFingerprint: "structurally changed" means different canonical JSON', () => {
  it('ignores key order and whitespace', () => {
    expect(argumentsFingerprint({ sql: 'SELECT 1', limit: 10 })).toBe(
      argumentsFingerprint(JSON.parse('{ "limit": 10,  "sql": "SELECT 1" }')),
    );
  });

  it('is the same string it always was (failure state stores it)', () => {
    expect(argumentsFingerprint({ sql: 'SELECT 1', limit: 10 })).toBe('h:rb3ucwufes:29');
  });

  it('takes what a tool framework hands over without throwing (Dates, NaN, functions, lone surrogates)', () => {
    expect(argumentsFingerprint({ at: new Date(0), n: Number.NaN, f: () => 1, s: '\ud800' })).toMatch(
      /^h:[0-9a-z]+:\d+$/,
    );
  });

  it('sees a changed value, type, or shape', () => {
    const base = argumentsFingerprint({ date: '2024-13-01', limit: 10 });
    expect(argumentsFingerprint({ date: '2024-12-01', limit: 10 })).not.toBe(base);
    expect(argumentsFingerprint({ date: '2024-13-01', limit: '10' })).not.toBe(base);
    expect(argumentsFingerprint({ date: '2024-13-01', limit: 10, tz: 'UTC' })).not.toBe(base);
  });

  it('is hash53 of the canonical JSON and its length, bit for bit, for any arguments (the walk builds no string)', () => {
    fc.assert(
      fc.property(record, (args) => {
        expect(argumentsFingerprint(args)).toBe(builtFingerprint(args));
      }),
      { numRuns: 2000 },
    );
    expect(leaf).toBeDefined();
  });

  it('is the same for the usual flat arguments (one level of strings, numbers, booleans, nulls) as for any others', () => {
    const flatValue = fc.oneof(
      fc.string(),
      fc.string({ unit: fc.constantFrom('a', '"', '\\', '\n', '\ud800', '\u00e9') }),
      fc.nat({ max: 2_000 }),
      fc.constantFrom(999_999_999, 1e9, -1, -0, 0.5, Number.NaN, 2 ** 53),
      fc.boolean(),
      fc.constant(null),
      fc.constant(undefined),
      fc.constant(() => 1),
    );
    const flat = fc.dictionary(fc.oneof(fc.string(), fc.constantFrom('q', 'limit', 'a"b', 'ts')), flatValue, {
      maxKeys: 12,
    });
    fc.assert(
      fc.property(flat, fc.subarray(['ts', 'q', 'absent']), (args, skip) => {
        const kept = Object.fromEntries(Object.entries(args).filter(([name]) => !skip.includes(name)));
        expect(argumentsFingerprintWithout(args, skip)).toBe(builtFingerprint(kept));
      }),
      { numRuns: 3000 },
    );
  });

  it('without named top-level members is the fingerprint of a copy without them', () => {
    fc.assert(
      fc.property(record, fc.subarray(['ts', 'requestId', 'q', 'absent']), (args, skip) => {
        // fromEntries defines own members, so an own "__proto__" stays a member (an assignment would set the prototype).
        const kept = Object.fromEntries(Object.entries(args).filter(([name]) => !skip.includes(name)));
        expect(argumentsFingerprintWithout(args, skip)).toBe(builtFingerprint(kept));
      }),
      { numRuns: 1000 },
    );
  });
});
