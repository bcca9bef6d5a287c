import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { argumentsFingerprint } from './arguments-fingerprint.js';
import { base36 } from './base36.js';
import { canonicalJson, CanonicalJsonError } from './canonical-json.js';
import { hash53 } from './hash53.js';
import { lenientBefore, strictBefore } from './spec-support/canonical-json-before.js';

// Stored hashes were made by the two writers this one replaced: the audit hash chain and its anchors
// with the strict one, policy versions and argument fingerprints with the lenient one. For every
// value, the merged writer must give the very same bytes, or refuse exactly what was refused.

/** Whatever JavaScript hands over: JSON, and the values JSON has no form for. */
const anyValue = fc.anything({
  key: fc.oneof(fc.string({ unit: 'binary' }), fc.constantFrom('__proto__', 'constructor', '1', '')),
  values: [
    fc.boolean(),
    fc.integer(),
    fc.double(),
    fc.string({ unit: 'binary' }),
    fc.constantFrom(null, undefined, -0, Number.NaN, () => 1, Symbol.for('s')),
  ],
  withBigInt: true,
  withBoxedValues: true,
  withDate: true,
  withMap: true,
  withSet: true,
  withNullPrototype: true,
  withObjectString: true,
  withSparseArray: true,
  withTypedArray: true,
});

type Outcome = { text: string } | { refused: string; kind: string };
const outcome = (write: () => string): Outcome => {
  try {
    return { text: write() };
  } catch (error) {
    const e = error as Error;
    return { refused: e.message, kind: e.name };
  }
};

describe('the one canonicalJson writes what each writer it replaced wrote', () => {
  it('strict (the default): the audit chain writer, bytes and refusals alike, for any value', () => {
    fc.assert(
      fc.property(anyValue, (value) => {
        expect(outcome(() => canonicalJson(value))).toEqual(outcome(() => strictBefore(value)));
      }),
      { numRuns: 2000 },
    );
  });

  it('strict: for JSON data, which the chain hashes, it never refuses', () => {
    fc.assert(
      fc.property(fc.jsonValue({ stringUnit: 'grapheme' }), (value) => {
        expect(canonicalJson(value)).toBe(strictBefore(value));
      }),
      { numRuns: 1000 },
    );
  });

  it('lenient: the policy-version and fingerprint writer, for any value', () => {
    fc.assert(
      fc.property(anyValue, (value) => {
        expect(outcome(() => canonicalJson(value, { lenient: true }))).toEqual(outcome(() => lenientBefore(value)));
      }),
      { numRuns: 2000 },
    );
  });

  it('lenient and strict agree wherever strict accepts', () => {
    fc.assert(
      fc.property(anyValue, (value) => {
        const strict = outcome(() => canonicalJson(value));
        if ('text' in strict) expect(canonicalJson(value, { lenient: true })).toBe(strict.text);
      }),
      { numRuns: 1000 },
    );
  });

  it('argument fingerprints (stored in failure state) are unchanged', () => {
    const fingerprintBefore = (args: Record<string, unknown>): string => {
      const before = lenientBefore(args);
      return `h:${base36(hash53(before))}:${before.length}`;
    };
    fc.assert(
      fc.property(fc.dictionary(fc.string({ unit: 'binary' }), anyValue), (args) => {
        expect(outcome(() => argumentsFingerprint(args))).toEqual(outcome(() => fingerprintBefore(args)));
      }),
      { numRuns: 1000 },
    );
  });

  it('refuses a cycle in strict mode as before, naming the path', () => {
    const looped: Record<string, unknown> = { a: [1, {}] };
    (looped.a as unknown[])[1] = { back: looped };
    expect(() => canonicalJson(looped)).toThrow(CanonicalJsonError);
    expect(outcome(() => canonicalJson(looped))).toEqual(outcome(() => strictBefore(looped)));
    expect(outcome(() => canonicalJson(looped))).toMatchObject({
      refused: 'canonicalJson: $.a[1].back refers to itself (a cycle)',
    });
  });
});
