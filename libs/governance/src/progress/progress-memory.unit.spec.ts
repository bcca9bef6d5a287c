import { SpecAgent, SpecOperator, Timeline } from '@tokencircuit/contracts/testing';
import type { AgentEvent, ToolCallOutcome } from '@tokencircuit/contracts';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { TokenCircuitConfig } from '../config/config.js';
import { DEFAULT_CONFIG, loadConfig } from '../config/load-config.js';
import { createGovernance } from '../governance.js';
import { concerns } from '../keys/candidate-selection.js';
import { keyIdOf } from '../keys/key-id.js';
import type { FailureState } from '../model.js';
import { isReadCall } from '../state/judge-attempt.js';
import { MemoryStateStore } from '../state/memory-state-store.js';
import { needsDecision } from '../state/needs-decision.js';
import { outboxEntryOf, type OutboxEntry } from '../state/outbox-entry.js';
import { governanceSpec } from '../testing/spec.js';
import { callDigestOf } from './call-digest.js';
import { progressMemoryIdOfCall, progressMemoryIdOfKey } from './progress-memory.js';
import { noProgressOf } from './progress-policy.js';
import { isProgressFact, isProgressKeyOf, progressKeyFor, progressKeyIdOf } from './progress-state.js';
import { emptyTrack, observe } from './progress-track.js';
import { returned } from './spec-support.js';

const timeline = new Timeline();
const agentIn = (run: string) =>
  new SpecAgent(timeline, 'acme', 'researcher', run, { principal: 'svc-research', effect: 'read' });

describe('run memory: a no_progress key exists only from the first finding', () => {
  it('given one search, when a second returns another answer, then only the run memory changes: no key, no outbox entry', () => {
    const agent = agentIn('run-memory-1');
    const first = returned(agent, agent.call('search', { arguments: { q: 'q3' } }), 'answer 1');
    const second = returned(agent, agent.call('search', { arguments: { q: 'q3' } }), 'answer 2');
    const memory = governanceSpec()
      .given([first])
      .when(second)
      .thenRemembers({ level: null, streak: 1, read: true, poll: false });
    expect(memory.calls).toBe(2);
    expect(memory.track.entries.map((e) => e.callId)).toEqual(
      [first, second].map((e) => (e as ToolCallOutcome).data.call.callId),
    );
    expect(memory.causingEventIds).toEqual([first.id, second.id]);
    expect(governanceSpec().given([first, second]).states().size).toBe(0);
  });

  it('given two identical searches, when a third returns the same answer, then the key is opened at that finding as the key kept since the first call would be', () => {
    const agent = agentIn('run-memory-2');
    const search = [1, 2, 3].map(() => returned(agent, agent.call('search', { arguments: { q: 'q3' } }), 'same'));
    const { memories } = createGovernance(DEFAULT_CONFIG).replay(search.slice(0, 2));
    const remembered = [...memories.values()][0]!;
    const result = governanceSpec()
      .given(search.slice(0, 2))
      .when(search[2]!)
      .then({
        keyId: progressKeyIdOf('acme', (search[0] as ToolCallOutcome).data.call),
        status: 'open',
        version: 3,
        episode: 2,
        causingEventIds: search.map((e) => e.id),
        openedAt: search[2]!.time,
        lastFailureAt: search[0]!.time,
        intentId: (search[0] as ToolCallOutcome).data.call.intentId,
        needsDecision: true,
        decision: { level: 'advise', nextAction: 'change_approach' },
      });
    const policy = noProgressOf(DEFAULT_CONFIG);
    const call = (search[2] as ToolCallOutcome).data.call;
    const entry = { callId: call.callId, callDigest: callDigestOf(call, policy), resultDigest: digestIn(search[2]!) };
    expect(result.changed[0]!.progress).toEqual(observe(remembered.track, entry, policy));
    expect(result.memory).toEqual({ id: progressMemoryIdOfCall('acme', call), memory: null });
  });

  it('given a remembered call, when its outcome is delivered again under another event id, then nothing changes', () => {
    const agent = agentIn('run-memory-3');
    const call = agent.call('search', { arguments: { q: 'q3' } });
    const once = returned(agent, call, 'same');
    const again = { ...returned(agent, call, 'same') };
    governanceSpec().given([once]).when(again).thenNothingChanged();
  });
});

describe('the memory store bounds its run memories', () => {
  it('given a capacity of two, when a third coordinate is remembered, then the memory created first is forgotten', () => {
    const store = new MemoryStateStore(2);
    const governance = createGovernance(DEFAULT_CONFIG);
    const agent = agentIn('run-bounded');
    const fold = (event: AgentEvent) =>
      store.remember(governance.project(store.candidates(governance.route(event)), event, store).memory);
    const a = agent.call('search', { arguments: { q: 'a' } });
    const b = agent.call('fetch', { arguments: { q: 'b' } });
    const c = agent.call('read_file', { arguments: { q: 'c' } });
    fold(returned(agent, a, 'A'));
    fold(returned(agent, b, 'B'));
    // Writing a's memory again keeps its place: it is still the oldest.
    fold(returned(agent, agent.call('search', { arguments: { q: 'a2' } }), 'A2'));
    fold(returned(agent, c, 'C'));
    expect([...store.memories.keys()]).toEqual([progressMemoryIdOfCall('acme', b), progressMemoryIdOfCall('acme', c)]);
    // The forgotten coordinates start a new ring.
    fold(returned(agent, agent.call('search', { arguments: { q: 'a' } }), 'A'));
    expect(store.memories.get(progressMemoryIdOfCall('acme', a))).toMatchObject({ calls: 1 });
    expect(store.memories.size).toBe(2);
  });

  it('a memory never holds more than the window of calls, however long the run', () => {
    const config = loadConfig({
      noProgress: {
        window: 4,
        sameCall: { read: { adviseAt: 2, blockAt: 4 }, write: { adviseAt: 2, blockAt: 4, pageAt: null } },
      },
    });
    const agent = agentIn('run-window');
    const events = Array.from({ length: 40 }, (_, i) =>
      returned(agent, agent.call('search', { arguments: { q: `q${i}` } }), `r${i}`),
    );
    const { memories, states } = createGovernance(config).replay(events);
    expect(states.size).toBe(0);
    const memory = [...memories.values()][0]!;
    expect(memory.track.entries).toHaveLength(4);
    expect(memory.causingEventIds).toHaveLength(20);
    expect(memory.calls).toBe(40);
  });
});

const digestIn = (event: AgentEvent): string | null => (event as ToolCallOutcome).data.resultDigest;

/**
 * The fold as it was before run memory (commit 2aa063b): a run's first digested success at a key's
 * coordinates opened the key (resolved while nothing was found), every later one transitioned it.
 * Kept here as the oracle the run memory must agree with.
 */
function keyedFromTheFirstCall(events: readonly AgentEvent[], config: TokenCircuitConfig) {
  const governance = createGovernance(config);
  const policy = noProgressOf(config);
  const states = new Map<string, FailureState>();
  const outbox: OutboxEntry[] = [];
  for (const event of events) {
    const routed = governance.route(event);
    let exists = false;
    for (const state of [...states.values()]) {
      if (!concerns(state, routed)) continue;
      if (event.type === 'tool_call.outcome' && isProgressKeyOf(state, event.data.call)) exists = true;
      const next = governance.evolve(state, event)!;
      if (next === state) continue;
      states.set(next.keyId, next);
      if (needsDecision(state, next)) outbox.push(outboxEntryOf(next));
    }
    if (exists || !isProgressFact(event, config)) continue;
    const { call, resultDigest } = event.data;
    const key = progressKeyFor(event.tenant, call);
    const poll = isReadCall(call) && policy.polling.tools.includes(call.tool);
    const track = observe(
      emptyTrack(isReadCall(call), poll, policy),
      { callId: call.callId, callDigest: callDigestOf(call, policy), resultDigest },
      policy,
    );
    const opened: FailureState = {
      keyId: keyIdOf(key),
      key,
      failureClass: 'no_progress',
      budget: track.thresholds?.blockAt ?? 0,
      retryCount: track.repeats,
      status: track.level === null ? 'resolved' : track.level === 'advise' ? 'open' : 'exhausted',
      verifierRequired: null,
      verifierStatus: 'not_required',
      lastReceipts: [],
      classificationReason: track.detector === null ? 'no_progress' : `no_progress:${track.detector}`,
      sideEffectEvidence: [`declared_effect:${call.effect}`],
      causingEventIds: [event.id],
      version: 1,
      updatedAt: event.time,
      episode: 1,
      openedAt: event.time,
      seenCallIds: [],
      legitimateAttempts: 0,
      violations: 0,
      lastViolation: null,
      failures: 0,
      intentId: call.intentId,
      argFingerprints: [],
      missingResourceIds: [],
      resolvedResourceId: null,
      finding: null,
      lastFailureAt: event.time,
      serverDelay: null,
      lastCall: { agent: call.agent, run: call.run, callId: call.callId },
      operator: null,
      acknowledgedSituation: null,
      overrideGrants: 0,
      progress: track,
    };
    states.set(opened.keyId, opened);
    if (needsDecision(null, opened)) outbox.push(outboxEntryOf(opened));
  }
  return { states, outbox };
}

describe('run memory changes no verdict (property, against the fold that keyed every run from its first call)', () => {
  const step = fc.record({
    run: fc.constantFrom('run-a', 'run-b'),
    tool: fc.constantFrom('search', 'job_status'),
    arg: fc.constantFrom('x', 'x', 'y'),
    result: fc.constantFrom('r1', 'r1', 'r2'),
    effect: fc.constantFrom('read' as const, 'read' as const, 'write' as const, 'unknown' as const),
    principal: fc.constantFrom('p1', 'p2'),
    authScope: fc.constantFrom('s1', 's1', 's1', null),
    // redeliver: the previous call's outcome again under a new event id; ack/reset: an operator on the call's key.
    kind: fc.constantFrom('call', 'call', 'call', 'call', 'redeliver', 'ack', 'reset'),
  });

  it('the same keys once found, the same states and outbox; every key never found is a run memory with its track', () => {
    let found = 0;
    let remembered = 0;
    fc.assert(
      fc.property(fc.array(step, { minLength: 20, maxLength: 80 }), fc.boolean(), (steps, polling) => {
        const config = loadConfig({
          noProgress: {
            sameCall: { read: { adviseAt: 2, blockAt: 4 }, write: { adviseAt: 2, blockAt: 3, pageAt: 4 } },
            ...(polling ? { polling: { tools: ['job_status'] } } : {}),
          },
        });
        const time = new Timeline();
        const operator = new SpecOperator(time, 'acme', 'oncall');
        const agents = new Map<string, SpecAgent>();
        const events: AgentEvent[] = [];
        let last: AgentEvent | null = null;
        for (const s of steps) {
          const agent =
            agents.get(s.run) ??
            agents.set(s.run, new SpecAgent(time, 'acme', 'bot', s.run, { resourceClass: 'api' })).get(s.run)!;
          const call = agent.call(s.tool, {
            arguments: { arg: s.arg },
            effect: s.effect,
            httpMethod: s.effect === 'unknown' ? 'GET' : null,
            principal: s.principal,
            authScope: s.authScope,
          });
          if (s.kind === 'redeliver' && last !== null) {
            const again = returned(agent, (last as ToolCallOutcome).data.call, s.result);
            events.push({ ...again, data: { ...again.data, resultDigest: digestIn(last) } } as AgentEvent);
          } else if (s.kind === 'ack' || s.kind === 'reset') {
            events.push(
              operator.resolves(progressKeyIdOf('acme', call), s.kind === 'ack' ? 'acknowledged' : 'reset', 'r'),
            );
          } else {
            last = returned(agent, call, s.result);
            events.push(last);
          }
        }
        const oracle = keyedFromTheFirstCall(events, config);
        const folded = createGovernance(config).replay(events);
        for (const [keyId, state] of folded.states) expect(state).toEqual(oracle.states.get(keyId));
        expect(folded.outbox).toEqual(oracle.outbox);
        for (const [keyId, state] of oracle.states) {
          if (folded.states.has(keyId)) continue;
          expect(state.progress!.level, keyId).toBeNull();
          expect(state.episode).toBe(1);
          const memory = folded.memories.get(progressMemoryIdOfKey(state.key))!;
          expect(memory.track).toEqual(state.progress);
          expect(memory.calls).toBe(state.version);
          expect(memory.causingEventIds).toEqual(state.causingEventIds);
          expect(memory.origin.key).toEqual(state.key);
        }
        expect(folded.memories.size).toBe(oracle.states.size - folded.states.size);
        found += folded.states.size;
        remembered += folded.memories.size;
      }),
      { numRuns: 200 },
    );
    // Both sides of the design ran: keys opened at a finding, and memories left where nothing was found.
    expect(found).toBeGreaterThan(50);
    expect(remembered).toBeGreaterThan(50);
  });
});
