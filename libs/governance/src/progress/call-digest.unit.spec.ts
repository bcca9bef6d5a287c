import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseAgentEvent, type ToolCallOutcome } from '@tokencircuit/contracts';
import { SpecAgent, Timeline } from '@tokencircuit/contracts/testing';
import { DEFAULT_CONFIG } from '../config/load-config.js';
import { createGovernance } from '../governance.js';
import { redactEvent } from '../redact/index.js';
import { governanceSpec } from '../testing/spec.js';
import { callDigestOf, outcomeCallDigestOf } from './call-digest.js';
import { noProgressOf, type NoProgressPolicy } from './progress-policy.js';
import { producerArgumentsDigest } from './producer-arguments-digest.js';
import { returned } from './spec-support.js';

const timeline = new Timeline();
const agent = new SpecAgent(timeline, 'acme', 'researcher', 'run-digest', { principal: 'svc', effect: 'read' });
const policy = noProgressOf(DEFAULT_CONFIG);
const withVolatile = (volatileFields: NoProgressPolicy['volatileFields']): NoProgressPolicy => ({
  ...policy,
  volatileFields,
});

/** A success of `search` with `args`, as the SDK sends it (argumentsDigest included) or as an older producer did. */
function success(args: Record<string, unknown>, digest: 'producer' | 'none' = 'producer'): ToolCallOutcome {
  const call = agent.call('search', { arguments: args });
  const event = returned(agent, call, 'same answer') as ToolCallOutcome;
  if (digest === 'none') return event;
  return { ...event, data: { ...event.data, argumentsDigest: producerArgumentsDigest(call) } };
}

/** What the API stores and the projector folds: the event validated and redacted. */
const stored = (event: ToolCallOutcome): ToolCallOutcome => redactEvent(parseAgentEvent(event)) as ToolCallOutcome;

describe("outcomeCallDigestOf: the producer's arguments digest where it means what the fold would compute", () => {
  it("given the producer left out the policy's volatile fields (in any order), then its digest is the call digest", () => {
    const event = success({ q: 'q3', requestId: 'r-1' });
    // A digest the arguments would not give: taken as sent, not computed again.
    const given = { ...event.data.argumentsDigest!, digest: 'h:zz:1' };
    expect(outcomeCallDigestOf({ ...event.data, argumentsDigest: given }, policy)).toBe('h:zz:1');
    const reordered = { ...event.data, argumentsDigest: { ...given, without: [...given.without].reverse() } };
    expect(outcomeCallDigestOf(reordered, policy)).toBe('h:zz:1');
  });

  it("given a policy with other volatile fields, then the fold computes the digest and ignores the producer's", () => {
    const event = success({ q: 'q3', cursor: 'c-1' });
    const lying = { ...event.data, argumentsDigest: { ...event.data.argumentsDigest!, digest: 'h:0:0' } };
    for (const other of [
      withVolatile({ '*': ['requestId', 'request_id', 'timestamp', 'nonce', 'cursor'] }),
      withVolatile({ '*': ['requestId'] }),
      withVolatile({ '*': ['requestId', 'request_id', 'timestamp', 'nonce'], search: ['cursor'] }),
      withVolatile({}),
    ]) {
      expect(outcomeCallDigestOf(lying, other)).toBe(callDigestOf(event.data.call, other));
      expect(outcomeCallDigestOf(lying, other)).not.toBe('h:0:0');
    }
    // A tool of its own with the same names as the "*" list (a name repeated) still matches.
    const repeated = withVolatile({ '*': ['requestId', 'request_id'], search: ['timestamp', 'nonce', 'requestId'] });
    expect(outcomeCallDigestOf(lying, repeated)).toBe('h:0:0');
  });

  it('given an older producer (no argumentsDigest), then the fold computes it, the same text', () => {
    const computed = success({ q: 'q3', requestId: 'r-2' }, 'none');
    const sent = success({ q: 'q3', requestId: 'r-3' });
    expect(outcomeCallDigestOf(computed.data, policy)).toBe(sent.data.argumentsDigest!.digest);
  });

  it('equals what the fold computes for the stored event, whatever the arguments (secrets redacted first)', () => {
    const secretish = fc.constantFrom('password', 'api_key', 'authorization', 'token', 'requestId', 'q', 'nonce');
    const value = fc.oneof(
      fc.string(),
      fc.constantFrom('sk-ant-api03-0123456789abcdefghijklmnop', 'ghp_0123456789abcdefghijklmnopqrstuvwxyz'),
      fc.integer(),
      fc.boolean(),
      fc.constant(null),
      fc.dictionary(fc.string({ maxLength: 8 }), fc.string(), { maxKeys: 3 }),
    );
    const args = fc.dictionary(fc.oneof(secretish, fc.string({ minLength: 1, maxLength: 10 })), value, { maxKeys: 6 });
    fc.assert(
      fc.property(args, (a) => {
        const event = stored(success(a));
        const given = event.data.argumentsDigest!.digest;
        expect(callDigestOf(event.data.call, policy)).toBe(given);
        expect(outcomeCallDigestOf({ ...event.data, argumentsDigest: undefined }, policy)).toBe(given);
      }),
      { numRuns: 300 },
    );
  });

  it('never carries what redaction removes: a secret changes nothing once redacted', () => {
    const one = producerArgumentsDigest(agent.call('search', { arguments: { q: 'x', password: 'hunter2-a' } }));
    const two = producerArgumentsDigest(agent.call('search', { arguments: { q: 'x', password: 'hunter2-b' } }));
    expect(one).toEqual(two);
  });
});

describe('no_progress with producer digests', () => {
  it('given two searches whose producer digests say "same call", when a third comes, then the loop is advised', () => {
    const [first, second, third] = ['a', 'b', 'c'].map((requestId) => success({ q: 'q3 revenue', requestId }));
    const result = governanceSpec()
      .given([first!, second!])
      .when(third!)
      .then({ failureClass: 'no_progress', status: 'open' });
    expect(result.changed[0]!.progress).toMatchObject({ detector: 'same_call_same_result', level: 'advise' });
  });

  it('given the same searches from an older producer, then the same states and run memories come out', () => {
    const withDigests = ['a', 'b', 'c', 'd'].map((requestId) => success({ q: 'q3 revenue', requestId }));
    const without = withDigests.map((e) => ({ ...e, data: { ...e.data, argumentsDigest: undefined } }));
    const governance = createGovernance(DEFAULT_CONFIG);
    const fold = (events: readonly ToolCallOutcome[]) => {
      const { states, memories } = governance.replay(events);
      return { states: [...states.values()], memories: [...memories.entries()] };
    };
    expect(fold(withDigests).states).toHaveLength(1);
    expect(fold(without)).toEqual(fold(withDigests));
  });
});
