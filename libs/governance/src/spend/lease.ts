import { committed, type LedgerLine } from './ledger.js';

/**
 * Leases of line room (docs/budgets.md, "Leases"): an API process takes a slice of a line's remaining room in one
 * conditional statement (the line's `reserved` then counts the whole slice) and serves preflights from it in
 * memory. The hard limit holds by construction: every lease is in the line's committed total before any call is
 * served from it. What a lease costs is precision, not safety: room leased by one process and not yet used is
 * invisible to the others, so these rules keep slices small next to the room and take none near the limit, where
 * every call is judged exactly on the line's row.
 */

/** A slice is at most this share of the room left (1/4): a few processes cannot lease the whole line between them. */
export const LEASE_ROOM_DIVISOR = 4;
/**
 * A slice is at most this many of the call's holds: a second or so of a busy line's calls, so a top-up (a statement
 * that waits its turn on the line's row lock) lands before the rest runs out; never a line's worth (room / 4).
 */
export const LEASE_HOLDS = 256;
/** No lease unless the room left is at least this many holds: near the limit every call is judged exactly. */
export const LEASE_MIN_ROOM_HOLDS = 16;
/** A lease row lives this long unless renewed (each flush that moves reservations out of it renews it). */
export const LEASE_TTL_MS = 60_000;
/** A lease is not served from when it expires within this margin: its row could be released before the flush lands. */
export const LEASE_MARGIN_MS = 10_000;
/** A lease unused this long is returned (its unused room released on the line); under LEASE_TTL_MS - LEASE_MARGIN_MS. */
export const LEASE_IDLE_MS = 40_000;
/** A line reserved on twice within this long is leased (leaseWorthTaking). */
export const LEASE_SEEN_MS = 60_000;

/** The unit a slice is counted in: a hold of 0 (a tool that uses no tokens) still leases a little room. */
const unit = (hold: number): number => Math.max(1, hold);

/**
 * How much room to lease on a line for calls holding about `hold` each: min(room / 4, 256 holds), or 0 (no lease)
 * when the room left is under 16 holds or the line has no room at all.
 */
export function leaseSlice(line: LedgerLine, hold: number): number {
  const room = line.limit - committed(line);
  if (room < LEASE_MIN_ROOM_HOLDS * unit(hold)) return 0;
  return Math.min(Math.floor(room / LEASE_ROOM_DIVISOR), LEASE_HOLDS * unit(hold));
}

/**
 * Whether a line without a lease is worth leasing: this process reserved on it before, within LEASE_SEEN_MS. A line
 * seen once (a run's first call, a run that calls every few minutes) would cost a take and a return for nothing.
 */
export const leaseWorthTaking = (lastSeenMs: number | undefined, nowMs: number): boolean =>
  lastSeenMs !== undefined && nowMs - lastSeenMs < LEASE_SEEN_MS && nowMs >= lastSeenMs;

/** A lease this process holds on one line, as it sees it. */
export interface LeaseView {
  /** Room not yet given to a call. */
  readonly room: number;
  readonly expiresAtMs: number;
}

/** Whether a call's hold can be served from the lease now: room for it, and the row is not about to expire. */
export const servesFromLease = (lease: LeaseView, hold: number, nowMs: number): boolean =>
  lease.room >= hold && lease.expiresAtMs - nowMs > LEASE_MARGIN_MS;

/** Whether a lease should be topped up (in the background): less than half a slice, or under two holds, left. */
export const leaseTopUpDue = (lease: LeaseView, slice: number, hold: number): boolean =>
  lease.room < Math.max(Math.floor(slice / 2), 2 * hold);

/** Whether an idle lease is returned: unused for LEASE_IDLE_MS, or too close to its expiry to serve. */
export const leaseReturnDue = (lease: LeaseView, lastUsedMs: number, nowMs: number): boolean =>
  nowMs - lastUsedMs >= LEASE_IDLE_MS || lease.expiresAtMs - nowMs <= LEASE_MARGIN_MS;

/**
 * The line as this process reports it in a verdict while serving from a lease: the last totals read from the row
 * (its `reserved` includes the whole lease) minus the room of the lease no call has taken yet. So the used ratio
 * and the thresholds count this process's calls as they are served, and the others' as of the last read.
 */
export const lineSeenThroughLease = (lastRead: LedgerLine, room: number): LedgerLine => ({
  ...lastRead,
  reserved: Math.max(0, lastRead.reserved - room),
});
