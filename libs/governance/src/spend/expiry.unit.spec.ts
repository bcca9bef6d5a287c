import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config/load-config.js';
import { expirySweepIntervalMs, isReservationDue, reservationExpiresAt } from './expiry.js';
import { estimateWithHistory, RECENT_MIN_SAMPLES } from './recent-average.js';

const policyWith = (ttlSeconds: number) =>
  loadConfig({
    spend: {
      budgets: [{ id: 'run-tokens', per: 'run', meter: 'tokens', limit: 10_000 }],
      reservationTtlSeconds: ttlSeconds,
      estimates: { default: { tokens: 1_000 }, tools: { 'web.search': { tokens: 40 } } },
    },
  }).spend!;

describe('reservation expiry', () => {
  it('given a 60 s TTL, a hold taken at t expires at t + 60 s, due from that instant while still held', () => {
    const policy = policyWith(60);
    const at = reservationExpiresAt(policy, 1_000);
    expect(at).toBe(61_000);
    expect(isReservationDue({ state: 'held', expiresAtMs: at }, 60_999)).toBe(false);
    expect(isReservationDue({ state: 'held', expiresAtMs: at }, 61_000)).toBe(true);
    expect(isReservationDue({ state: 'settled', expiresAtMs: at }, 99_000)).toBe(false);
    expect(isReservationDue({ state: 'expired', expiresAtMs: at }, 99_000)).toBe(false);
  });

  it('sweeps every quarter TTL, at least every second and at most every minute', () => {
    expect(expirySweepIntervalMs(policyWith(60))).toBe(15_000);
    expect(expirySweepIntervalMs(policyWith(1))).toBe(1_000);
    expect(expirySweepIntervalMs(policyWith(3_600))).toBe(60_000);
  });
});

describe('an estimate from the tool’s recent average', () => {
  const policy = policyWith(60);
  const recent = { samples: RECENT_MIN_SAMPLES, mean: { tokens: 412.2, cost: 1_500.5, calls: 1 } };

  it('uses what the call declared, meter by meter, before any history', () => {
    expect(estimateWithHistory(policy, 'llm.chat', { tokens: 90 }, recent)).toEqual({
      tokens: 90,
      cost: 1_501,
      calls: 1,
    });
  });

  it('rounds the recent mean up when the call declares nothing', () => {
    expect(estimateWithHistory(policy, 'llm.chat', {}, recent)).toEqual({ tokens: 413, cost: 1_501, calls: 1 });
  });

  it('falls back to the policy’s estimate (the tool’s, else the default) with too few or no recent calls', () => {
    const few = { ...recent, samples: RECENT_MIN_SAMPLES - 1 };
    expect(estimateWithHistory(policy, 'web.search', {}, few).tokens).toBe(40);
    expect(estimateWithHistory(policy, 'llm.chat', {}, null).tokens).toBe(1_000);
  });
});
