import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { joinBodies, jsonBodies } from './json-bodies.js';

describe('jsonBodies', () => {
  it('gives the UTF-8 bytes of the bodies joined by U+001E, which splits back into exactly the bodies', () => {
    fc.assert(
      fc.property(fc.array(fc.jsonValue(), { minLength: 1, maxLength: 20 }), (values) => {
        const bytes = jsonBodies(values);
        const texts = values.map((value) => JSON.stringify(value));
        expect(bytes.equals(Buffer.from(texts.join('\u001e'), 'utf8'))).toBe(true);
        expect(
          bytes
            .toString('utf8')
            .split('\u001e')
            .map((text) => JSON.parse(text)),
        ).toEqual(texts.map((text) => JSON.parse(text)));
      }),
    );
  });

  it('keeps multi-byte characters and an escaped separator inside a body whole', () => {
    const body = { note: 'naïve — 東京 🚀', separator: '\u001e', line: '\u2028' };
    const bytes = joinBodies([JSON.stringify(body), JSON.stringify([1])]);
    const [first, second, ...rest] = bytes.toString('utf8').split('\u001e');
    expect(rest).toEqual([]);
    expect(JSON.parse(first!)).toEqual(body);
    expect(JSON.parse(second!)).toEqual([1]);
  });

  it('is empty for no bodies', () => {
    expect(jsonBodies([]).length).toBe(0);
  });
});
