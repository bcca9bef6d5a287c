import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config/load-config.js';
import { policyVersion } from '../config/policy-version.js';
import { DEFAULT_FLEET, fleetAdviceText, fleetLoopFor, fleetLoops, type RunLoopFact } from './fleet-loops.js';
import { noProgressOf } from './progress-policy.js';

const NOW = Date.parse('2026-12-04T12:00:00.000Z');
const hoursAgo = (h: number) => new Date(NOW - h * 3_600_000).toISOString();
const fact = (run: string, at: string, over: Partial<RunLoopFact> = {}): RunLoopFact => ({
  run,
  tool: 'search',
  callDigests: ['d-q3'],
  level: 'block',
  at,
  ...over,
});

describe('fleet-wide loops', () => {
  it('given three runs stopped on the same search within a day, then the fleet names the loop', () => {
    const loops = fleetLoops(
      [fact('r1', hoursAgo(5)), fact('r2', hoursAgo(3), { level: 'advise' }), fact('r3', hoursAgo(1))],
      DEFAULT_FLEET,
      NOW,
    );
    expect(loops).toEqual([
      { tool: 'search', callDigest: 'd-q3', runs: 3, firstSeen: hoursAgo(5), lastSeen: hoursAgo(1), level: 'block' },
    ]);
    expect(fleetLoopFor(loops, 'search', 'd-q3')?.runs).toBe(3);
    expect(fleetAdviceText(loops[0]!)).toContain(`3 runs looped on this search call since ${hoursAgo(5)}`);
  });

  it('given two runs only, or one run looping three times, then there is no fleet loop', () => {
    expect(fleetLoops([fact('r1', hoursAgo(2)), fact('r2', hoursAgo(1))], DEFAULT_FLEET, NOW)).toEqual([]);
    expect(
      fleetLoops([fact('r1', hoursAgo(3)), fact('r1', hoursAgo(2)), fact('r1', hoursAgo(1))], DEFAULT_FLEET, NOW),
    ).toEqual([]);
  });

  it('given loops older than the window, then they do not count', () => {
    const facts = [fact('r1', hoursAgo(30)), fact('r2', hoursAgo(2)), fact('r3', hoursAgo(1))];
    expect(fleetLoops(facts, DEFAULT_FLEET, NOW)).toEqual([]);
    expect(fleetLoops(facts, { runs: 3, windowHours: 48 }, NOW)).toHaveLength(1);
  });

  it('given a different argument pattern or another tool, then it is another key', () => {
    const loops = fleetLoops(
      [
        fact('r1', hoursAgo(3)),
        fact('r2', hoursAgo(2), { callDigests: ['d-q4'] }),
        fact('r3', hoursAgo(1), { tool: 'fetch' }),
      ],
      { runs: 2, windowHours: 24 },
      NOW,
    );
    expect(loops).toEqual([]);
    expect(
      fleetLoopFor(
        fleetLoops([fact('r1', hoursAgo(2)), fact('r2', hoursAgo(1))], { runs: 2, windowHours: 24 }, NOW),
        'search',
        'd-q4',
      ),
    ).toBeNull();
  });

  it('given runs going round the same cycle, then each call of the cycle is a fleet loop', () => {
    const cycle = { callDigests: ['a', 'b'] };
    const loops = fleetLoops(
      [fact('r1', hoursAgo(2), cycle), fact('r2', hoursAgo(1), cycle)],
      { runs: 2, windowHours: 24 },
      NOW,
    );
    expect(loops.map((l) => l.callDigest).sort()).toEqual(['a', 'b']);
  });

  it('given a policy with noProgress.fleet, then it is normalised, and it changes the policy version', () => {
    const base = loadConfig({ noProgress: {} });
    const tuned = loadConfig({ noProgress: { fleet: { runs: 5 } } });
    expect(noProgressOf(base).fleet).toEqual(DEFAULT_FLEET);
    expect(noProgressOf(tuned).fleet).toEqual({ runs: 5, windowHours: 24 });
    expect(policyVersion(tuned)).not.toBe(policyVersion(base));
  });
});
