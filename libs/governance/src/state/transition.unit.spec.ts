import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../config/load-config.js';
import type { FailureState } from '../model.js';
import { buildTrace, traceSteps } from '../testing/trace-arbitrary.js';
import { withPatch } from './transition.js';
import { createGovernance } from '../governance.js';

const governance = createGovernance(DEFAULT_CONFIG);

/** Real states: every key a random trace opens, in every version the fold produced. */
const states = traceSteps()
  .map((steps) => governance.replay(buildTrace(steps, DEFAULT_CONFIG)).outbox.map((e) => e.snapshot))
  .filter((xs) => xs.length >= 2);

/** A patch: some fields of one real state laid over another (explicit undefined too, which spread copies). */
const patchFrom = (from: FailureState) =>
  fc
    .subarray(Object.keys(from) as (keyof FailureState)[])
    .chain((names) =>
      fc.tuple(fc.constant(names), fc.array(fc.boolean(), { minLength: names.length, maxLength: names.length })),
    )
    .map(
      ([names, undef]) =>
        Object.fromEntries(names.map((n, i) => [n, undef[i] ? undefined : from[n]])) as Partial<FailureState>,
    );

describe('withPatch is { ...state, ...patch }, field by field', () => {
  it('gives the same fields, values and key order for any real state and patch', () => {
    fc.assert(
      fc.property(
        states.chain((xs) => fc.tuple(fc.constantFrom(...xs), patchFrom(xs[xs.length - 1]!))),
        ([state, patch]) => {
          const next = withPatch(state, patch);
          const spread = { ...state, ...patch };
          expect(Object.keys(next)).toEqual(Object.keys(spread));
          expect(next).toStrictEqual(spread);
          expect(JSON.stringify(next)).toBe(JSON.stringify(spread));
        },
      ),
      { numRuns: 100 },
    );
  });

  it('leaves the state it started from untouched', () => {
    fc.assert(
      fc.property(states, (xs) => {
        const before = JSON.stringify(xs[0]);
        withPatch(xs[0]!, { status: 'resolved', retryCount: 99 });
        expect(JSON.stringify(xs[0])).toBe(before);
      }),
      { numRuns: 20 },
    );
  });

  it('writes a state read back in another key order (jsonb) in the declaration order, with the same values', () => {
    fc.assert(
      fc.property(states, (xs) => {
        const state = xs[0]!;
        const reordered = Object.fromEntries(Object.entries(state).reverse()) as unknown as FailureState;
        const next = withPatch(reordered, { status: 'blocked' });
        expect(Object.keys(next)).toEqual(Object.keys(state));
        expect(next).toStrictEqual({ ...state, status: 'blocked' });
      }),
      { numRuns: 20 },
    );
  });
});
