import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { windowAt } from './windows.js';

const ZONES = ['UTC', 'Europe/Berlin', 'America/St_Johns', 'Asia/Kathmandu', 'Pacific/Chatham', 'Africa/Monrovia'];

/** The calendar date in a zone computed afresh, with no cache in between. */
const freshDate = (ms: number, timeZone: string): string =>
  new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(ms);

describe('windowAt for calendar windows', () => {
  it('names the same day and month as a fresh formatter, however instants and zones follow one another', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            // Around 2026, and often within a second of a local midnight of some zone (quarter-hour offsets).
            ms: fc.oneof(
              fc.integer({ min: Date.UTC(1960, 0, 1), max: Date.UTC(2040, 0, 1) }),
              fc
                .tuple(fc.integer({ min: 0, max: 4 * 24 * 365 }), fc.integer({ min: -1_500, max: 1_500 }))
                .map(([quarter, jitter]) => Date.UTC(2026, 0, 1) + quarter * 900_000 + jitter),
            ),
            zone: fc.constantFrom(...ZONES),
          }),
          { minLength: 1, maxLength: 40 },
        ),
        (asks) => {
          for (const { ms, zone } of asks) {
            expect(windowAt({ kind: 'day' }, ms, zone).window).toBe(freshDate(ms, zone));
            expect(windowAt({ kind: 'month' }, ms, zone).window).toBe(freshDate(ms, zone).slice(0, 7));
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('turns the day at local midnight, not at the second it was last asked in', () => {
    const midnightBerlin = Date.UTC(2026, 2, 31, 22, 0, 0); // 00:00 on April 1st in Berlin (CEST, +02:00)
    expect(windowAt({ kind: 'day' }, midnightBerlin - 1, 'Europe/Berlin').window).toBe('2026-03-31');
    expect(windowAt({ kind: 'day' }, midnightBerlin - 1, 'Europe/Berlin').window).toBe('2026-03-31');
    expect(windowAt({ kind: 'day' }, midnightBerlin, 'Europe/Berlin').window).toBe('2026-04-01');
    expect(windowAt({ kind: 'month' }, midnightBerlin, 'Europe/Berlin').window).toBe('2026-04');
  });
});
