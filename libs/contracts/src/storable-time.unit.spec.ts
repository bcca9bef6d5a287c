import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { StorableTimestamp, TIMESTAMP_LIMITS, timestampProblem } from './storable-time.js';

const accepts = (text: string) => StorableTimestamp.safeParse(text).success;

describe('timestamps Postgres timestamptz and JavaScript both hold', () => {
  it('accepts the edges of the range, inside', () => {
    for (const text of [
      '0001-01-01T00:00:00Z',
      '0001-01-01T00:00:00.000-15:59', // the instant is 15:59 later, still year 0001
      '9999-12-31T23:59:59.999Z',
      '9999-12-31T23:59:59.999+15:59',
      '2025-06-01T12:00:00+15:59',
      '2025-06-01T12:00:00-15:59',
      '2025-06-01T12:00:00.123456789Z',
      '2025-06-01T12:00:00-00:00',
    ]) {
      expect(timestampProblem(text), text).toBeNull();
      expect(accepts(text), text).toBe(true);
    }
  });

  it('refuses the edges of the range, just outside, with the reason', () => {
    const cases: [string, RegExp][] = [
      ['0000-12-31T23:59:59Z', /outside/],
      ['0001-01-01T00:00:00+00:01', /outside/], // the instant falls in year 0000
      ['9999-12-31T23:59:59.999-00:01', /outside/], // … in year 10000
      ['2025-06-01T12:00:00+16:00', /offset/],
      ['2025-06-01T12:00:00-16:00', /offset/],
      ['2025-06-01T12:00:00+23:59', /offset/],
      ['2025-06-01T12:00:00.1234567890Z', /fractional/],
    ];
    for (const [text, reason] of cases) {
      expect(timestampProblem(text), text).toMatch(reason);
      expect(accepts(text), text).toBe(false);
    }
  });

  it('keeps refusing what RFC 3339 refuses: no offset, a space, a leap second, an impossible date', () => {
    for (const text of [
      '2025-06-01T12:00:00',
      '2025-06-01 12:00:00Z',
      '2025-06-30T23:59:60Z',
      '2025-02-30T00:00:00Z',
    ]) {
      expect(accepts(text), text).toBe(false);
    }
  });

  it('accepts every instant of the range as toISOString writes it', () => {
    const [min, max] = [Date.parse(TIMESTAMP_LIMITS.minInstant), Date.parse(TIMESTAMP_LIMITS.maxInstant)];
    fc.assert(
      fc.property(fc.integer({ min, max }), (ms) => {
        expect(accepts(new Date(ms).toISOString())).toBe(true);
      }),
    );
  });

  it('refuses every instant outside it, with any offset Postgres allows', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 9999 }),
        fc.integer({ min: -15, max: 15 }),
        fc.integer({ min: 0, max: 59 }),
        (year, hours, minutes) => {
          const offset = `${hours < 0 ? '-' : '+'}${String(Math.abs(hours)).padStart(2, '0')}:${String(minutes).padStart(2, '0')}`;
          const text = `${String(year).padStart(4, '0')}-01-01T00:00:00${offset}`;
          const ms = Date.parse(text);
          const inside = ms >= Date.parse(TIMESTAMP_LIMITS.minInstant) && ms <= Date.parse(TIMESTAMP_LIMITS.maxInstant);
          expect(accepts(text)).toBe(inside);
        },
      ),
    );
  });
});
