import { describe, expect, it } from 'vitest';
import { validTraceparent } from './trace-context.js';

describe('W3C traceparent', () => {
  const valid = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';

  it('keeps a valid one, and a future version with more fields', () => {
    expect(validTraceparent(valid)).toBe(valid);
    expect(validTraceparent('01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-extra')).not.toBeNull();
  });

  it('drops what the spec says to ignore, and anything huge', () => {
    for (const bad of [
      valid.toUpperCase(),
      `${valid}-x`, // version 00 has exactly four fields
      '00-00000000000000000000000000000000-00f067aa0ba902b7-01',
      '00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01',
      'ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01',
      `01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-${'x'.repeat(1000)}`,
      'x\u0000',
      42,
    ]) {
      expect(validTraceparent(bad)).toBeNull();
    }
  });
});
