import { describe, expect, it } from 'vitest';
import { LOOK_ALIKES } from './fixtures/look-alikes.js';
import { SECRET_SHAPES } from './fixtures/secret-shapes.js';
import { redact, redactSecrets } from './redact.js';

/**
 * The corpus of secret shapes (fixtures/secret-shapes.ts, from public secret-scanner rule sets and the
 * RFCs) against both redaction entry points, and the look-alikes that must survive them.
 */
describe('every secret shape of the corpus is redacted', () => {
  it('covers every rule family', () => {
    const families = new Set(SECRET_SHAPES.map((shape) => shape.family));
    expect([...families].sort()).toEqual([
      'argument-names',
      'auth-schemes',
      'header-names',
      'key-pairs',
      'key-value',
      'known-tokens',
      'pem',
      'url-credentials',
    ]);
  });

  describe.each([
    ['redact', redact],
    ['redactSecrets', redactSecrets],
  ] as const)('%s', (_, redaction) => {
    it.each(SECRET_SHAPES.map((shape) => [`${shape.family}: ${shape.what}`, shape] as const))('%s', (_name, shape) => {
      const out = redaction(shape.text);
      expect(out).not.toContain(shape.secret);
      expect(out).toContain('[REDACTED:');
      expect(redaction(out)).toBe(out);
    });
  });

  it.each(SECRET_SHAPES.map((shape) => [`${shape.family}: ${shape.what}`, shape] as const))(
    '%s: also inside a JSON document held as text',
    (_name, shape) => {
      const out = redact(JSON.stringify({ error: shape.text }));
      expect(out).not.toContain(shape.secret);
      expect(out).not.toContain(JSON.stringify(shape.secret).slice(1, -1));
    },
  );
});

describe('look-alikes are not redacted', () => {
  it.each(LOOK_ALIKES.map((l) => [l.what, l] as const))('%s', (_name, lookAlike) => {
    expect(redactSecrets(lookAlike.text)).toBe(lookAlike.text);
    if (lookAlike.where === 'free-text') expect(redact(lookAlike.text)).toBe(lookAlike.text);
  });
});
