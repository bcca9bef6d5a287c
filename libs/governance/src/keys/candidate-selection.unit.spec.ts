import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../config/load-config.js';
import type { FailureState } from '../model.js';
import { preflight } from '../preflight/preflight.js';
import { MemoryStateStore } from '../state/memory-state-store.js';
import { candidateCall, candidateProbe, candidateStates } from '../testing/candidate-arbitrary.js';
import { candidateSelection, concerns, isSelected, preflightSelection } from './candidate-selection.js';
import { callMatcher, matches } from './key-matcher.js';
import { route } from './route.js';

const NOW = '2025-03-01T09:00:01.000Z';
const ids = (states: Iterable<FailureState>): string[] => [...states].map((s) => s.keyId).sort();
const storeOf = (states: readonly FailureState[]): MemoryStateStore => {
  const store = new MemoryStateStore();
  for (const state of states) store.put(state);
  return store;
};
const withProbe = candidateStates(DEFAULT_CONFIG).chain((states) =>
  fc.tuple(fc.constant(states), candidateProbe(states)),
);

describe('candidateSelection: the one rule for which failure states an event may touch', () => {
  it('given any states, when an event is routed, then every state it concerns is selected', () => {
    fc.assert(
      fc.property(withProbe, ([states, event]) => {
        const routed = route(event, DEFAULT_CONFIG);
        const selection = candidateSelection(routed);
        for (const state of states) if (concerns(state, routed)) expect(isSelected(state, selection)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('given any states, when an outcome opens a key, then that key (if it exists) is selected', () => {
    fc.assert(
      fc.property(withProbe, ([states, event]) => {
        const routed = route(event, DEFAULT_CONFIG);
        const existing = states.find((s) => s.keyId === routed.createKeyId);
        if (existing !== undefined) expect(isSelected(existing, candidateSelection(routed))).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('the memory store returns exactly the selected states', () => {
    fc.assert(
      fc.property(withProbe, ([states, event]) => {
        const selection = candidateSelection(route(event, DEFAULT_CONFIG));
        expect(ids(storeOf(states).selected(selection))).toEqual(ids(states.filter((s) => isSelected(s, selection))));
      }),
      { numRuns: 300 },
    );
  });

  it('a preflight judges the selected states exactly as it judges all of them', () => {
    fc.assert(
      fc.property(candidateStates(DEFAULT_CONFIG), candidateCall, (states, { tenant, call }) => {
        const selection = preflightSelection(tenant, call);
        const selected = storeOf(states).selected(selection);
        expect(ids(selected)).toEqual(ids(states.filter((s) => isSelected(s, selection))));
        const matcher = callMatcher(tenant, call);
        const judged = (s: FailureState) =>
          matches(s.key, matcher) && (s.status !== 'resolved' || s.finding === 'effect_applied');
        for (const state of states) if (judged(state)) expect(isSelected(state, selection)).toBe(true);
        expect(preflight(selected, tenant, call, DEFAULT_CONFIG, NOW)).toEqual(
          preflight(states, tenant, call, DEFAULT_CONFIG, NOW),
        );
      }),
      { numRuns: 300 },
    );
  });

  it('keeps coordinates apart even when their names run into each other', () => {
    fc.assert(
      fc.property(withProbe, ([states, event]) => {
        // The same rows with two characters moved from the run (or principal) to the tenant: joined, the names read alike.
        const shifted = states.map((s) => {
          const k = s.key;
          const moved = (k.run ?? k.principal ?? '').slice(0, 2);
          return {
            ...s,
            keyId: `shifted-${s.keyId}`,
            key: {
              ...k,
              tenant: `${k.tenant}${moved}`,
              run: k.run === null ? null : k.run.slice(2),
              principal: k.run === null && k.principal !== null ? k.principal.slice(2) : k.principal,
            },
          };
        });
        const all = [...states, ...shifted];
        const selection = candidateSelection(route(event, DEFAULT_CONFIG));
        expect(ids(storeOf(all).selected(selection))).toEqual(ids(all.filter((s) => isSelected(s, selection))));
      }),
      { numRuns: 100 },
    );
  });
});
