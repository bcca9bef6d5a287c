import { describe, expect, it } from 'vitest';
import { createGovernance, DEFAULT_CONFIG, type FailureState } from '@tokencircuit/governance';
import { generateTrace } from '@tokencircuit/testing';
import { CandidateStateCache } from './candidate-state-cache.js';

const states = [
  ...createGovernance(DEFAULT_CONFIG)
    .replay(generateTrace({ events: 600, seed: 8 }))
    .states.values(),
];
const runKey = states.find((s) => s.key.scope === 'run')!;
const fleetKey = states.find((s) => s.key.scope === 'fleet')!;
const nothing = { runTools: [], fleetResources: [], keyIds: [] };
const atRun = (s: FailureState) => ({
  ...nothing,
  runTools: [[s.key.tenant, s.key.run!, s.key.equivalenceKey.tool_name] as const],
});
const atFleet = (s: FailureState) => ({
  ...nothing,
  fleetResources: [[s.key.tenant, s.key.principal!, s.key.resourceId] as const],
});

describe('CandidateStateCache', () => {
  it('finds a remembered state by the coordinates a load selects it by, and by its id', () => {
    const cache = new CandidateStateCache(100);
    cache.remember([runKey, fleetKey]);
    expect(cache.known(atRun(runKey)).get(runKey.keyId)).toBe(runKey);
    expect(cache.known(atFleet(fleetKey)).get(fleetKey.keyId)).toBe(fleetKey);
    expect(cache.known({ ...nothing, keyIds: [fleetKey.keyId, 'no-such-key'] })).toEqual(
      new Map([[fleetKey.keyId, fleetKey]]),
    );
    // Another tool of the same run, another resource of the same principal: not these keys.
    const otherTool = atRun(runKey);
    expect(cache.known({ ...otherTool, runTools: [[runKey.key.tenant, runKey.key.run!, 'another-tool']] }).size).toBe(
      0,
    );
    expect(
      cache.known({ ...nothing, fleetResources: [[fleetKey.key.tenant, fleetKey.key.principal!, 'elsewhere']] }).size,
    ).toBe(0);
  });

  it('keeps the later of two versions of a key, whichever is remembered last', () => {
    const cache = new CandidateStateCache(100);
    const later = { ...runKey, version: runKey.version + 1 };
    cache.remember([later]);
    cache.remember([runKey]);
    expect(cache.known(atRun(runKey)).get(runKey.keyId)).toBe(later);
    expect(cache.size).toBe(1);
  });

  it('holds at most its capacity, forgetting the least recently remembered, from its coordinates too', () => {
    const cache = new CandidateStateCache(3);
    const four = states.slice(0, 4);
    cache.remember(four.slice(0, 3));
    cache.remember([four[0]!]); // used again: now the most recent
    cache.remember([four[3]!]);
    expect(cache.size).toBe(3);
    const held = four.filter((s) => cache.known({ ...nothing, keyIds: [s.keyId] }).size === 1);
    expect(held).toEqual([four[0], four[2], four[3]]);
    const gone = four[1]!;
    expect(cache.known(gone.key.scope === 'fleet' ? atFleet(gone) : atRun(gone)).has(gone.keyId)).toBe(false);
  });

  it('with capacity 0 holds nothing, and refuses a capacity that is not a whole number ≥ 0', () => {
    const cache = new CandidateStateCache(0);
    cache.remember(states);
    expect(cache.size).toBe(0);
    expect(() => new CandidateStateCache(-1)).toThrow(RangeError);
    expect(() => new CandidateStateCache(1.5)).toThrow(RangeError);
  });

  it('deep-freezes what it holds when asked (for specs), so a change in place throws', () => {
    const cache = new CandidateStateCache(10, true);
    const copy = structuredClone(runKey);
    cache.remember([copy]);
    expect(Object.isFrozen(copy)).toBe(true);
    expect(Object.isFrozen(copy.causingEventIds)).toBe(true);
    expect(() => (copy.causingEventIds as string[]).push('x')).toThrow(TypeError);
  });
});
