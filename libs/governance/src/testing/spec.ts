import type { AgentEvent, ToolCall } from '@tokencircuit/contracts';
import { expect } from 'vitest';
import type { TokenCircuitConfig } from '../config/config.js';
import { DEFAULT_CONFIG } from '../config/load-config.js';
import type { Decision, FailureState } from '../model.js';
import type { PreflightResult } from '../preflight/preflight.js';
import type { ProgressMemory } from '../progress/progress-memory.js';
import type { ProgressTrack } from '../progress/progress-track.js';
import type { Projection } from '../state/project-event.js';
import { createGovernance } from '../governance.js';

/** What a spec expects of one state the `when` event moved: any subset of its fields, plus the decision. */
export type ExpectedTransition = Partial<Omit<FailureState, 'key'>> & {
  readonly key?: Partial<FailureState['key']>;
  readonly decision?: Partial<Decision>;
  /** Whether the transition produced an outbox entry. */
  readonly needsDecision?: boolean;
};

/**
 * given/when/then over the pure core, after emmett's deciderSpecification: `given` events are folded
 * (the reference fold), `when` is projected onto that state, `then` checks every state it moved.
 *
 *   spec.given([failed]).when(retry).then({ status: 'exhausted', decision: { nextAction: 'forced_summary' } })
 */
export function governanceSpec(config: TokenCircuitConfig = DEFAULT_CONFIG) {
  const governance = createGovernance(config);
  return {
    given(events: readonly AgentEvent[]) {
      const folded = () => governance.replay(events);
      const states = () => folded().states;
      return {
        when(event: AgentEvent) {
          const run = (): { result: Projection; before: ReadonlyMap<string, FailureState> } => {
            const { states: before, memories } = folded();
            return { result: governance.project(before.values(), event, memories), before };
          };
          return {
            /** Every moved state must match exactly one expectation, and no expectation is left over. */
            then(expected: ExpectedTransition | readonly ExpectedTransition[]): Projection {
              const { result } = run();
              const list = Array.isArray(expected) ? expected : [expected as ExpectedTransition];
              const outboxKeys = new Set(result.outbox.map((e) => e.keyId));
              const actual = result.changed.map((s) => ({
                ...s,
                decision: governance.decide(s),
                needsDecision: outboxKeys.has(s.keyId),
              }));
              expect(actual, 'number of states the event moved').toHaveLength(list.length);
              const unmatched = [...actual];
              for (const want of list) {
                const at = unmatched.findIndex((got) => partiallyEquals(got, want));
                if (at < 0)
                  expect(unmatched, 'a moved state matching the expectation').toContainEqual(
                    expect.objectContaining(want),
                  );
                unmatched.splice(at, 1);
              }
              return result;
            },
            /**
             * A digested success the detectors found nothing in: no state moved, no outbox entry, only the
             * run memory at the call's coordinates, whose track matches `track` (any subset of its fields).
             */
            thenRemembers(track: Partial<ProgressTrack> = {}): ProgressMemory {
              const { result } = run();
              expect(result.changed, 'states moved by a success with no finding').toEqual([]);
              expect(result.outbox).toEqual([]);
              expect(result.memory?.memory, 'the run memory the success wrote').toBeTruthy();
              const memory = result.memory!.memory!;
              expect(memory.track).toMatchObject(track);
              return memory;
            },
            thenNothingChanged(): void {
              const { result } = run();
              expect(result.changed, 'states moved by an event that should be ignored').toEqual([]);
              expect(result.outbox).toEqual([]);
            },
          };
        },
        /** Asks preflight about `call` against the given state. */
        whenPreflight(tenant: string, call: ToolCall, now: string) {
          const result = (): PreflightResult => governance.preflight(states().values(), tenant, call, now);
          return {
            thenAllowed(): PreflightResult {
              const r = result();
              expect(r, r.reason).toMatchObject({ allow: true, blocking: null });
              return r;
            },
            thenDenied(
              expected: { reason?: RegExp; blocking?: Partial<FailureState>; decision?: Partial<Decision> } = {},
            ): PreflightResult {
              const r = result();
              expect(r.allow, `preflight allowed: ${r.reason}`).toBe(false);
              if (expected.reason) expect(r.reason).toMatch(expected.reason);
              if (expected.blocking) expect(r.blocking).toMatchObject(expected.blocking);
              if (expected.decision) expect(r.decision).toMatchObject(expected.decision);
              return r;
            },
          };
        },
        /** The folded states, for assertions a scenario wants to make directly. */
        states,
      };
    },
  };
}

function partiallyEquals(actual: object, expected: object): boolean {
  try {
    expect(actual).toMatchObject(expected);
    return true;
  } catch {
    return false;
  }
}
