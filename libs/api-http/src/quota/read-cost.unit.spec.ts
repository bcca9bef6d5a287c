import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_READ_COST, readCost } from './read-cost.js';

describe('read cost', () => {
  it('prices a verification page by the chain rows it may hash, an anchor check on top', () => {
    expect(readCost('/v1/audit/verify', {})).toBe(101);
    expect(readCost('/v1/audit/verify', { limit: '10' })).toBe(2);
    expect(readCost('/v1/audit/verify', { limit: '10000', eventsThrough: '5' })).toBe(MAX_READ_COST);
  });

  it('prices a listing page by its size, one row or window at 1', () => {
    expect(readCost('/v1/audit/interventions', {})).toBe(2);
    expect(readCost('/v1/state', { limit: '500' })).toBe(6);
    expect(readCost('/v1/dashboard/fleet', { limit: '500' })).toBe(1);
  });

  // Whatever a client sends, the price is known before the read runs and never above what the burst must hold.
  it('is between 1 and MAX_READ_COST for any query', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('/v1/audit/verify', '/v1/audit/interventions', '/v1/state', '/v1/state/:keyId'),
        fc.dictionary(fc.constantFrom('limit', 'eventsThrough', 'cursor'), fc.oneof(fc.string(), fc.nat().map(String))),
        (route, query) => {
          const cost = readCost(route, query);
          expect(Number.isInteger(cost)).toBe(true);
          expect(cost).toBeGreaterThanOrEqual(1);
          expect(cost).toBeLessThanOrEqual(MAX_READ_COST);
        },
      ),
    );
  });
});
