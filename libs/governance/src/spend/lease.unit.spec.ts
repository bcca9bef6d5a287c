import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { committed, lineKey, type LedgerLine } from './ledger.js';
import {
  LEASE_IDLE_MS,
  LEASE_TTL_MS,
  LEASE_MARGIN_MS,
  LEASE_SEEN_MS,
  leaseReturnDue,
  leaseSlice,
  leaseTopUpDue,
  leaseWorthTaking,
  lineSeenThroughLease,
  servesFromLease,
} from './lease.js';

const line = (limit: number, spent: number, reserved = 0, carried = 0): LedgerLine => ({
  key: lineKey('tenant-usd-month', 'acme', '2026-12'),
  meter: 'cost',
  limit,
  spent,
  reserved,
  carried,
});

describe('how much line room a process leases', () => {
  it('given plenty of room, leases 256 holds', () => {
    expect(leaseSlice(line(5_000_000_000, 0), 10_000)).toBe(2_560_000);
  });

  it('given room for 40 holds, leases a quarter of the room, not 256 holds', () => {
    expect(leaseSlice(line(10_000, 6_000), 100)).toBe(1_000);
  });

  it('given room for fewer than 16 holds, leases nothing: near the limit every call is judged on the row', () => {
    expect(leaseSlice(line(10_000, 9_250), 100)).toBe(0);
    expect(leaseSlice(line(10_000, 8_000, 401), 100)).toBe(0);
    expect(leaseSlice(line(10_000, 10_000), 0)).toBe(0);
  });

  it('counts what is carried from a rolling window’s earlier hours and what others reserved as used', () => {
    expect(leaseSlice(line(100_000, 0, 50_000, 49_000), 1)).toBe(250);
    expect(leaseSlice(line(100_000, 0, 50_000, 49_990), 1)).toBe(0);
  });

  it('given a hold of 0 (a tool that uses no tokens), still leases a little room so such calls need no round trip', () => {
    expect(leaseSlice(line(200_000, 0), 0)).toBe(256);
  });

  it('never leases more than the room left, and never a quarter more than once of what is left (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1e12 }),
        fc.integer({ min: 0, max: 1e12 }),
        fc.integer({ min: 0, max: 1e9 }),
        fc.integer({ min: 0, max: 1e6 }),
        (limit, used, reserved, hold) => {
          const l = line(limit, Math.min(used, limit), reserved);
          const slice = leaseSlice(l, hold);
          const room = limit - committed(l);
          expect(slice).toBeGreaterThanOrEqual(0);
          if (slice > 0) {
            expect(slice).toBeLessThanOrEqual(room / 4);
            // Taken, the lease leaves the line within its limit: the row's rule (committed + lease ≤ limit) admits it.
            expect(committed({ ...l, reserved: l.reserved + slice })).toBeLessThanOrEqual(limit);
            // And at least 4 holds: worth the statement.
            expect(slice).toBeGreaterThanOrEqual(4 * Math.max(1, hold));
          }
        },
      ),
    );
  });
});

describe('how long a lease lives', () => {
  it('is returned when idle before it could expire unrenewed: idle time + margin within the TTL', () => {
    expect(LEASE_IDLE_MS + LEASE_MARGIN_MS).toBeLessThanOrEqual(LEASE_TTL_MS);
  });
});

describe('which lines are leased', () => {
  const now = 1_000_000;

  it('given a line this process reserved on for the first time, does not lease it (a take and a return for one call)', () => {
    expect(leaseWorthTaking(undefined, now)).toBe(false);
  });

  it('given a line reserved on again within a minute, leases it; later than that, it is a first time again', () => {
    expect(leaseWorthTaking(now - LEASE_SEEN_MS + 1, now)).toBe(true);
    expect(leaseWorthTaking(now - LEASE_SEEN_MS, now)).toBe(false);
  });
});

describe('serving a call from a lease', () => {
  const now = 1_000_000;

  it('given room for the hold and an expiry well ahead, serves it', () => {
    expect(servesFromLease({ room: 100, expiresAtMs: now + 30_000 }, 100, now)).toBe(true);
  });

  it('given less room than the hold, does not: the call takes the exact path', () => {
    expect(servesFromLease({ room: 99, expiresAtMs: now + 30_000 }, 100, now)).toBe(false);
  });

  it('given a lease expiring within the margin, does not: the sweep could release it before the flush lands', () => {
    expect(servesFromLease({ room: 1_000, expiresAtMs: now + LEASE_MARGIN_MS }, 1, now)).toBe(false);
    expect(servesFromLease({ room: 1_000, expiresAtMs: now + LEASE_MARGIN_MS + 1 }, 1, now)).toBe(true);
  });

  it('tops up when under half a slice or two holds is left', () => {
    expect(leaseTopUpDue({ room: 499, expiresAtMs: now }, 1_000, 10)).toBe(true);
    expect(leaseTopUpDue({ room: 500, expiresAtMs: now }, 1_000, 10)).toBe(false);
    expect(leaseTopUpDue({ room: 199, expiresAtMs: now }, 300, 100)).toBe(true);
  });

  it('returns a lease idle for LEASE_IDLE_MS, or one too close to its expiry to serve', () => {
    const lease = { room: 10, expiresAtMs: now + 60_000 };
    expect(leaseReturnDue(lease, now - LEASE_IDLE_MS + 1, now)).toBe(false);
    expect(leaseReturnDue(lease, now - LEASE_IDLE_MS, now)).toBe(true);
    expect(leaseReturnDue({ room: 10, expiresAtMs: now + LEASE_MARGIN_MS }, now, now)).toBe(true);
  });
});

describe('the line a verdict shows while calls are served from a lease', () => {
  it('given a lease of 1,000 with 700 unused, shows the row’s reserved minus the unused room', () => {
    const read = line(10_000, 2_000, 1_500);
    expect(lineSeenThroughLease(read, 700)).toEqual({ ...read, reserved: 800 });
  });
});
