import { describe, expect, it } from 'vitest';
import { quoteSchema } from './quote-schema.js';

describe('quoteSchema: only plain lower-case names reach the SQL text', () => {
  it('quotes a plain name', () => {
    expect(quoteSchema('public')).toBe('"public"');
    expect(quoteSchema('replay_20261201231500_a1b2c3')).toBe('"replay_20261201231500_a1b2c3"');
  });

  it('refuses anything that could close the quote or name another object', () => {
    for (const bad of ['', 'Public', 'a"; DROP TABLE x; --', 'a.b', '1abc', 'x'.repeat(64)]) {
      expect(() => quoteSchema(bad), bad).toThrow(/not a plain schema name/);
    }
  });
});
