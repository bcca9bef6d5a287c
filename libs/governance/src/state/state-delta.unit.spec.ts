import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../config/load-config.js';
import type { FailureState } from '../model.js';
import { buildTrace, traceSteps } from '../testing/trace-arbitrary.js';
import { createGovernance } from '../governance.js';
import { applyStateDelta, stateDelta } from './state-delta.js';

const governance = createGovernance(DEFAULT_CONFIG);

/** Every version of every key a random trace's fold produced, grouped by key. */
const versionsByKey = traceSteps()
  .map((steps) => {
    const byKey = new Map<string, FailureState[]>();
    for (const { snapshot } of governance.replay(buildTrace(steps, DEFAULT_CONFIG)).outbox)
      byKey.set(snapshot.keyId, [...(byKey.get(snapshot.keyId) ?? []), snapshot]);
    return [...byKey.values()].filter((versions) => versions.length >= 2);
  })
  .filter((keys) => keys.length > 0);

/** What the database hands back: JSON text parsed (the base from failure_state, the delta from its column). */
const stored = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

describe('stateDelta / applyStateDelta: an earlier version of a key written against a later one', () => {
  it('gives back the earlier state byte for byte, for any two versions of a real key', () => {
    fc.assert(
      fc.property(
        versionsByKey.chain((keys) =>
          fc
            .constantFrom(...keys)
            .chain((versions) => fc.tuple(fc.constantFrom(...versions), fc.constantFrom(...versions))),
        ),
        ([state, base]) => {
          const delta = stateDelta(state, base);
          if (delta === null) return;
          expect(JSON.stringify(applyStateDelta(stored(base), stored(delta)))).toBe(JSON.stringify(state));
        },
      ),
      { numRuns: 200 },
    );
  });

  it('carries only the fields the transition replaced', () => {
    fc.assert(
      fc.property(versionsByKey, (keys) => {
        const [state, base] = keys[0]!.slice(-2) as [FailureState, FailureState];
        const delta = stateDelta(state, base)!;
        expect(delta).not.toBeNull();
        const [s, b] = [state, base] as unknown as Record<string, unknown>[];
        const changed = Object.keys(s!).filter((k) => s![k] !== undefined && s![k] !== b![k]);
        expect([...Object.keys(delta.set), ...Object.keys(delta.slice ?? {})].sort()).toEqual([...changed].sort());
        expect(JSON.stringify(delta).length).toBeLessThan(JSON.stringify(state).length);
      }),
      { numRuns: 30 },
    );
  });

  it('names the fields the base has and the state lacks, and appends those only the state has', () => {
    fc.assert(
      fc.property(versionsByKey, (keys) => {
        const base = keys[0]![0]!;
        const withExtra = {
          ...base,
          reclassification: { from: 'transient', to: 'validation' },
        } as unknown as FailureState;
        const toExtra = stateDelta(withExtra, base)!;
        expect(toExtra.set).toEqual({ reclassification: { from: 'transient', to: 'validation' } });
        expect(JSON.stringify(applyStateDelta(stored(base), stored(toExtra)))).toBe(JSON.stringify(withExtra));
        const fromExtra = stateDelta(base, withExtra)!;
        expect(fromExtra).toEqual({ set: {}, unset: ['reclassification'] });
        expect(JSON.stringify(applyStateDelta(stored(withExtra), stored(fromExtra)))).toBe(JSON.stringify(base));
      }),
      { numRuns: 10 },
    );
  });

  it('is null when the state has a field the base lacks ahead of the base’s own (a copy keeps its order)', () => {
    fc.assert(
      fc.property(versionsByKey, (keys) => {
        const base = keys[0]![0]!;
        const first = { extra: 1, ...base } as unknown as FailureState;
        expect(stateDelta(first, base)).toBeNull();
      }),
      { numRuns: 10 },
    );
  });

  it('writes a list that is a run of the base’s as where it sits, and a list that is not as its items', () => {
    fc.assert(
      fc.property(versionsByKey, (keys) => {
        const base = keys[0]![0]!;
        const grown = {
          ...base,
          causingEventIds: ['e-1', 'e-2', 'e-3', 'e-4'],
          seenCallIds: ['c-1', 'c-2'],
        } as FailureState;
        const earlier = {
          ...grown,
          causingEventIds: grown.causingEventIds.slice(1, 3),
          seenCallIds: ['c-8', 'c-9'],
        } as FailureState;
        const delta = stateDelta(earlier, grown)!;
        expect(delta.slice).toEqual({ causingEventIds: [1, 3] });
        expect(delta.set).toEqual({ seenCallIds: ['c-8', 'c-9'] });
        expect(JSON.stringify(applyStateDelta(stored(grown), stored(delta)))).toBe(JSON.stringify(earlier));
        // A bounded list that dropped items from its front since: those items, then where the rest sits.
        const dropped = {
          ...grown,
          causingEventIds: ['e-0', 'e-1', 'e-2'],
          seenCallIds: ['c-0', 'c-2'],
        } as FailureState;
        const across = stateDelta(dropped, grown)!;
        expect(across.slice).toEqual({ causingEventIds: [0, 2, ['e-0']], seenCallIds: [1, 2, ['c-0']] });
        expect(JSON.stringify(applyStateDelta(stored(grown), stored(across)))).toBe(JSON.stringify(dropped));
        // An empty list is written out: no run to point at.
        expect(stateDelta({ ...grown, seenCallIds: [] } as FailureState, grown)!.set).toEqual({ seenCallIds: [] });
      }),
      { numRuns: 10 },
    );
  });

  it('refuses a run that is not within its base’s list rather than build another state', () => {
    fc.assert(
      fc.property(versionsByKey, (keys) => {
        const base = keys[0]![0]!;
        for (const run of [
          [0, base.causingEventIds.length + 1],
          [-1, 1],
          [1, 1],
        ] as [number, number][])
          expect(() => applyStateDelta(stored(base), { set: {}, slice: { causingEventIds: run } })).toThrow(
            /not within its base's list/,
          );
        expect(() => applyStateDelta(stored(base), { set: {}, slice: { version: [0, 1] } })).toThrow(
          /not within its base's list/,
        );
        expect(() =>
          applyStateDelta(stored(base), { set: {}, slice: { causingEventIds: [0, 1, 'x' as unknown as unknown[]] } }),
        ).toThrow(/are not a list/);
      }),
      { numRuns: 5 },
    );
  });
});
