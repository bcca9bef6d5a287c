import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { epochMs, isoOf } from './time.js';

// The hand-written fast paths must be indistinguishable from Date: same numbers, same strings, same errors.
const viaDate = (iso: string): number | 'throws' => {
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? 'throws' : ms;
};
const ours = (iso: string): number | 'throws' => {
  try {
    return epochMs(iso);
  } catch (e) {
    expect(e).toBeInstanceOf(TypeError);
    return 'throws';
  }
};
const pad = (n: number, width: number) => String(n).padStart(width, '0');

describe('epochMs reads timestamps exactly as Date.parse does', () => {
  it.each([
    '2025-03-01T00:10:00.123Z',
    '1970-01-01T00:00:00.000Z',
    '9999-12-31T23:59:59.999Z',
    '2024-02-29T12:00:00.000Z',
    '2025-02-29T00:00:00.000Z', // rolls over to March 1st, as Date.parse does
    '2025-04-31T00:00:00.000Z',
    '2025-03-01T24:00:00.000Z',
    '2025-03-01T23:59:60.000Z',
    '2025-13-01T00:00:00.000Z',
    '2025-00-10T00:00:00.000Z',
    '0099-01-01T00:00:00.000Z',
    '0000-01-01T00:00:00.000Z',
    '2025-03-01T00:00:00Z',
    '2025-03-01T00:00:00.1Z',
    '2025-03-01T00:00:00.000+01:00',
    '2025-03-01 00:00:00.000Z',
    '2025-03-0xT00:00:00.000Z',
    'not a time at all, 24 ch',
    '',
  ])('%s', (iso) => {
    expect(ours(iso)).toBe(viaDate(iso));
  });

  it('for any canonical-looking stamp, in range or not', () => {
    fc.assert(
      fc.property(
        fc.tuple(
          fc.integer({ min: 0, max: 9999 }),
          fc.integer({ min: 0, max: 99 }),
          fc.integer({ min: 0, max: 99 }),
          fc.integer({ min: 0, max: 99 }),
          fc.integer({ min: 0, max: 99 }),
          fc.integer({ min: 0, max: 99 }),
          fc.integer({ min: 0, max: 999 }),
        ),
        ([y, mo, d, h, mi, s, ms]) => {
          const iso = `${pad(y, 4)}-${pad(mo, 2)}-${pad(d, 2)}T${pad(h, 2)}:${pad(mi, 2)}:${pad(s, 2)}.${pad(ms, 3)}Z`;
          expect(ours(iso)).toBe(viaDate(iso));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('names the field it could not read', () => {
    expect(() => epochMs('yesterday', 'lastFailureAt')).toThrow(
      'lastFailureAt: "yesterday" is not an ISO-8601 timestamp',
    );
  });
});

describe('isoOf writes instants exactly as toISOString does', () => {
  const viaDateIso = (ms: number): string => {
    try {
      return new Date(ms).toISOString();
    } catch (e) {
      return `throws ${(e as Error).name}`;
    }
  };
  const oursIso = (ms: number): string => {
    try {
      return isoOf(ms);
    } catch (e) {
      return `throws ${(e as Error).name}`;
    }
  };

  it.each([
    0,
    1,
    999,
    1000,
    86_399_999,
    86_400_000,
    951_782_400_000,
    1_740_787_200_123,
    253_402_300_799_999,
    253_402_300_800_000,
    -1,
    1.5,
    8.64e15,
    8.64e15 + 1,
    NaN,
  ])('%d', (ms) => {
    expect(oursIso(ms)).toBe(viaDateIso(ms));
  });

  it('for any instant from before 1970 to beyond year 9999', () => {
    fc.assert(
      fc.property(fc.integer({ min: -100_000_000_000_000, max: 300_000_000_000_000 }), (ms) => {
        expect(oursIso(ms)).toBe(viaDateIso(ms));
      }),
      { numRuns: 5000 },
    );
  });

  it('round-trips with epochMs', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 253_402_300_799_999 }), (ms) => {
        expect(epochMs(isoOf(ms))).toBe(ms);
      }),
    );
  });
});
