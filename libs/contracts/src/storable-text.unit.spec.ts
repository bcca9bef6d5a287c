import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mayHoldUnstorableText, storableJson, storableText } from './storable-text.js';

describe('storableText: what Postgres cannot store becomes U+FFFD, nothing else changes', () => {
  it('replaces NUL and unpaired surrogates, keeps surrogate pairs', () => {
    expect(storableText('a\u0000b')).toBe('a\ufffdb');
    expect(storableText('x\ud800y\udc00z')).toBe('x\ufffdy\ufffdz');
    expect(storableText('end\ud83d')).toBe('end\ufffd');
    expect(storableText('emoji \ud83d\ude00 ok')).toBe('emoji \ud83d\ude00 ok');
  });

  it('output is well-formed UTF-16 without NUL, and storable text is a fixed point', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        const clean = storableText(text);
        expect(clean.includes('\u0000')).toBe(false);
        expect(Buffer.from(clean, 'utf8').toString('utf8')).toBe(clean);
        expect(storableText(clean)).toBe(clean);
        expect(clean.length).toBe(text.length);
      }),
    );
  });

  it('JSON.stringify of any value with such text trips the cheap pre-check', () => {
    fc.assert(
      fc.property(fc.jsonValue({ stringUnit: 'binary' }), (value) => {
        const json = JSON.stringify(value);
        if (!mayHoldUnstorableText(json)) expect(storableJson(value)).toBe(value);
      }),
    );
  });

  it('cleans names and nested values, and returns the same object when clean', () => {
    const clean = { a: ['b', { c: 1 }] };
    expect(storableJson(clean)).toBe(clean);
    expect(storableJson({ 'k\u0000': ['v\ud800', { n: null }] })).toEqual({ 'k\ufffd': ['v\ufffd', { n: null }] });
  });
});
