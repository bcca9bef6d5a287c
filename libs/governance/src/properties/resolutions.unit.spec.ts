import {
  FAILURE_CLASSES,
  RESOLUTION_KINDS,
  VERIFIER_KINDS,
  type AgentEvent,
  type FailureClass,
  type ResolutionKind,
  type ToolCall,
  type VerifierKind,
  type VerifierResultFinding,
} from '@tokencircuit/contracts';
import { SpecAgent, SpecOperator, Timeline } from '@tokencircuit/contracts/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../config/load-config.js';
import type { FailureState } from '../model.js';
import { rememberIn, type ProgressMemory } from '../progress/progress-memory.js';
import { createGovernance } from '../governance.js';
import { RESOLUTION_MEANINGS, RESOLUTION_SITUATIONS, resolutionApplies } from '../state/resolution-meaning.js';

const governance = createGovernance(DEFAULT_CONFIG);

/** One write of each failure class (an empty read too), failing the way the class is documented to. */
type Opening = FailureClass | 'empty_result';
const OPENINGS: readonly Opening[] = [...FAILURE_CLASSES, 'empty_result'];

/** What happens after the opening failure: operators acting, verifiers answering, the agent re-sending. */
type Step =
  | { readonly kind: 'operator'; readonly resolution: ResolutionKind; readonly unsafeOverride: boolean }
  | { readonly kind: 'verifier'; readonly verifier: VerifierKind; readonly finding: VerifierResultFinding }
  | { readonly kind: 'resend'; readonly outcome: 'none' | 'success' | 'timeout' };

const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 4, arbitrary: operatorStep() },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('verifier' as const),
      verifier: fc.constantFrom(...VERIFIER_KINDS),
      finding: fc.constantFrom<VerifierResultFinding>('confirmed', 'refuted', 'inconclusive'),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('resend' as const),
      outcome: fc.constantFrom('none' as const, 'success' as const, 'timeout' as const),
    }),
  },
);

function operatorStep(): fc.Arbitrary<Step> {
  return fc.record({
    kind: fc.constant('operator' as const),
    resolution: fc.constantFrom(...RESOLUTION_KINDS),
    unsafeOverride: fc.boolean(),
  });
}

interface Played {
  readonly states: Map<string, FailureState>;
  readonly keyId: string;
  readonly original: ToolCall;
  readonly agent: SpecAgent;
  readonly timeline: Timeline;
}

/** Plays the opening failure of `opening`, then `steps`, through project() as the projector does. */
function play(opening: Opening, steps: readonly Step[], onStep: (played: Played, s: Step) => void): Played {
  const timeline = new Timeline();
  const write = opening !== 'empty_result';
  const agent = new SpecAgent(timeline, 'acme', 'bot', 'run-p', {
    resourceClass: 'api_endpoint',
    authScope: 'refunds:write',
    principal: 'svc-a',
    resourceId: 'ch-1',
    effect: write ? 'write' : 'read',
    httpMethod: write ? 'POST' : 'GET',
  });
  const oncall = new SpecOperator(timeline, 'acme', 'oncall');
  const original = agent.call('refund', { arguments: { charge: 'ch-1', amount: 40 } });
  const states = new Map<string, FailureState>();
  const memories = new Map<string, ProgressMemory>();
  const apply = (event: AgentEvent) => {
    const result = governance.project(states.values(), event, memories);
    for (const s of result.changed) states.set(s.keyId, s);
    rememberIn(memories, result.memory);
  };
  apply(openingFailure(agent, original, opening));
  expect(states.size, `the opening ${opening} failure opens one key`).toBe(1);
  const keyId = [...states.keys()][0]!;
  const played: Played = { states, keyId, original, agent, timeline };
  let last = original;
  for (const s of steps) {
    timeline.advance(3_600_000);
    if (s.kind === 'operator') apply(oncall.resolves(keyId, s.resolution, 'property', s.unsafeOverride));
    else if (s.kind === 'verifier') apply(agent.verified(last, s.verifier, s.finding));
    else {
      last = agent.retry(last);
      apply(agent.requested(last));
      if (s.outcome === 'success') apply(agent.succeeded(last));
      if (s.outcome === 'timeout') apply(agent.unknown(last, { errno: 'ETIMEDOUT' }, { requestSent: true }));
    }
    onStep(played, s);
  }
  return played;
}

function openingFailure(agent: SpecAgent, call: ToolCall, opening: Opening): AgentEvent {
  const hinted = (httpStatus: number, classHint: FailureClass) =>
    agent.failed(call, { httpStatus, message: 'failed', classHint }, { requestSent: true, responseReceived: true });
  switch (opening) {
    case 'ambiguous_effect':
      return agent.unknown(call, { errno: 'ETIMEDOUT', message: 'socket timeout' }, { requestSent: true });
    case 'empty_result':
      return agent.succeeded(call, { empty: true, rowCount: 0 });
    case 'transient':
      return hinted(503, 'transient');
    case 'validation':
      return hinted(422, 'validation');
    case 'permission':
      return hinted(403, 'permission');
    case 'missing_resource':
      return hinted(404, 'missing_resource');
    case 'invariant_violation':
      return hinted(409, 'invariant_violation');
    default: {
      const exhaustive: never = opening;
      return exhaustive;
    }
  }
}

const resendAllowed = (p: Played): boolean => {
  const resend = p.agent.retry(p.original, { callId: `probe-${p.timeline.now()}` });
  return governance.preflight(p.states.values(), 'acme', resend, p.timeline.now()).allow;
};

describe('operator resolutions keep their promise (property)', () => {
  it('no operator action (nor a later verifier answer or re-send sent anyway) makes preflight allow a re-send of an intent whose effect was confirmed', () => {
    let confirmations = 0;
    fc.assert(
      fc.property(fc.constantFrom(...OPENINGS), fc.array(step, { maxLength: 8 }), (opening, steps) => {
        let confirmed = false;
        play(opening, steps, (p, s) => {
          const state = p.states.get(p.keyId)!;
          // Confirmed by a verifier or an operator: from here on, whatever operators, verifiers or the agent do
          // (a re-send sent anyway opens a new episode that pages), preflight never allows the intent again.
          if (state.finding === 'effect_applied') confirmed = true;
          if (!confirmed) return;
          confirmations += 1;
          expect(resendAllowed(p), `${opening} after ${JSON.stringify(s)}`).toBe(false);
        });
      }),
      { numRuns: 400 },
    );
    expect(confirmations, 'the generator reaches confirmed writes').toBeGreaterThan(50);
  });

  it('an uncertain write an operator found absent is re-sent exactly once', () => {
    fc.assert(
      fc.property(fc.array(operatorStep(), { maxLength: 4 }), (before) => {
        const p = play('ambiguous_effect', [...before, absent], () => undefined);
        const state = p.states.get(p.keyId)!;
        if (state.finding !== 'effect_not_applied' || state.status !== 'resolved') return; // resolved earlier
        expect(resendAllowed(p)).toBe(true);
        const once = play(
          'ambiguous_effect',
          [...before, absent, { kind: 'resend', outcome: 'success' }],
          () => undefined,
        );
        expect(resendAllowed(once)).toBe(false);
      }),
      { numRuns: 200 },
    );
  });

  it('every resolution that applies ends the episode; an acknowledgement or one that does not apply never does', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...OPENINGS),
        fc.constantFrom(...RESOLUTION_KINDS),
        fc.boolean(),
        (opening, resolution, unsafeOverride) => {
          const before = play(opening, [], () => undefined);
          const state = before.states.get(before.keyId)!;
          const applies = resolutionApplies(state, resolution);
          const after = play(opening, [{ kind: 'operator', resolution, unsafeOverride }], () => undefined);
          const next = after.states.get(after.keyId)!;
          if (!applies) expect(next.version).toBe(state.version);
          else if (resolution !== 'acknowledged' && !(unsafeOverride && next.overrideGrants > 0))
            expect(next.status, `${opening} ${resolution}`).toBe('resolved');
          if (resolution === 'acknowledged') expect(next.status).toBe(state.status);
        },
      ),
    );
  });

  it('the table defines acknowledged and reset for every situation, and what establishes a write only for writes', () => {
    for (const situation of RESOLUTION_SITUATIONS) {
      expect(RESOLUTION_MEANINGS[situation].acknowledged, situation).toBeDefined();
      expect(RESOLUTION_MEANINGS[situation].reset, situation).toBeDefined();
      const establishesWrite =
        RESOLUTION_MEANINGS[situation].effect_confirmed !== undefined ||
        RESOLUTION_MEANINGS[situation].effect_absent !== undefined;
      expect(establishesWrite, situation).toBe(situation === 'uncertain_write');
    }
  });
});

const absent: Step = { kind: 'operator', resolution: 'effect_absent', unsafeOverride: false };
