import { describe, expect, it } from 'vitest';
import { fleetWindowOf } from './fleet-window.js';

describe('fleet window', () => {
  const now = new Date('2026-12-01T14:37:25.000Z');

  it('defaults to the last hour in one-minute buckets, aligned so refreshes keep the same buckets', () => {
    expect(fleetWindowOf({}, now)).toEqual({
      name: '1h',
      from: new Date('2026-12-01T13:38:00.000Z'),
      to: new Date('2026-12-01T14:38:00.000Z'),
      bucketSeconds: 60,
    });
  });

  it('covers a day in half-hour buckets', () => {
    const window = fleetWindowOf({ window: '24h' }, now);
    expect(window.to.toISOString()).toBe('2026-12-01T15:00:00.000Z');
    expect(window.from.toISOString()).toBe('2026-11-30T15:00:00.000Z');
    expect(window.bucketSeconds).toBe(1800);
  });

  it('names a bad or unknown parameter', () => {
    expect(() => fleetWindowOf({ window: '5y' }, now)).toThrow(/window/);
    expect(() => fleetWindowOf({ tenant: 'globex' }, now)).toThrow(/tenant/);
  });
});
