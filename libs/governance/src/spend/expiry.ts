import type { SpendPolicy } from './spend-policy.js';

/**
 * Reservations that are never settled (the agent crashed, its outcome was lost) expire: after the policy's
 * `reservationTtlSeconds` (default 600) their holds are released and nothing is spent. An outcome that arrives
 * later still spends what it reports (a late settle), so usage is never lost, only no longer held in advance.
 */
export const reservationExpiresAt = (policy: Pick<SpendPolicy, 'reservationTtlMs'>, reservedAtMs: number): number =>
  reservedAtMs + policy.reservationTtlMs;

/** A held reservation is due at its expiry instant (inclusive), and only while it is still held. */
export const isReservationDue = (
  reservation: { readonly state: string; readonly expiresAtMs: number },
  nowMs: number,
): boolean => reservation.state === 'held' && reservation.expiresAtMs <= nowMs;

/**
 * How often a service sweeps due reservations: a quarter of the TTL, between 1 s and 60 s, so a crashed call's
 * hold is released at most TTL + interval after it was taken (preflight also releases due holds before it
 * refuses a call, so a budget is never refused on account of a hold already due).
 */
export const expirySweepIntervalMs = (policy: Pick<SpendPolicy, 'reservationTtlMs'>): number =>
  Math.min(60_000, Math.max(1_000, Math.floor(policy.reservationTtlMs / 4)));
