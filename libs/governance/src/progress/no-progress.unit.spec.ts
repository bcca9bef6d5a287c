import { SpecAgent, SpecOperator, Timeline } from '@tokencircuit/contracts/testing';
import { DiagnosticArtifactSchema, type AgentEvent } from '@tokencircuit/contracts';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG, loadConfig, TokenCircuitConfigError } from '../config/load-config.js';
import { policyVersion } from '../config/policy-version.js';
import { createGovernance } from '../governance.js';
import { governanceSpec } from '../testing/spec.js';
import { returned } from './spec-support.js';

const timeline = new Timeline();
const agentIn = (run: string) =>
  new SpecAgent(timeline, 'acme', 'researcher', run, { principal: 'svc-research', effect: 'read' });

/** `times` calls of `tool` with the same arguments, each returning `result`. */
function repeats(
  agent: SpecAgent,
  tool: string,
  times: number,
  result = 'same answer',
  args: Record<string, unknown> = { q: 'q3 revenue' },
) {
  const events: AgentEvent[] = [];
  for (let i = 0; i < times; i += 1) events.push(returned(agent, agent.call(tool, { arguments: args }), result));
  return events;
}

describe('same call, same result', () => {
  const spec = governanceSpec();
  const agent = agentIn('run-search');
  const search = repeats(agent, 'search', 6);

  it('given two identical searches, when a third returns the same answer, then the run is advised to change approach', () => {
    spec
      .given(search.slice(0, 2))
      .when(search[2]!)
      .then({
        failureClass: 'no_progress',
        status: 'open',
        retryCount: 3,
        classificationReason: 'no_progress:same_call_same_result',
        needsDecision: true,
        decision: { intervene: true, level: 'advise', nextAction: 'change_approach' },
      });
  });

  it('given four, when a fifth returns the same answer (the read threshold), then it is blocked: summarise and stop', () => {
    spec
      .given(search.slice(0, 4))
      .when(search[4]!)
      .then({
        status: 'exhausted',
        retryCount: 5,
        needsDecision: true,
        decision: { level: 'block', nextAction: 'forced_summary' },
      });
  });

  it('given the block, preflight refuses the same search again but allows a different one', () => {
    const given = spec.given(search.slice(0, 5));
    given.whenPreflight('acme', agent.call('search', { arguments: { q: 'q3 revenue' } }), timeline.now()).thenDenied({
      reason: /made this search call 5 times with the same result/,
      decision: { level: 'block', nextAction: 'forced_summary' },
    });
    given
      .whenPreflight('acme', agent.call('search', { arguments: { q: 'q3 revenue by region' } }), timeline.now())
      .thenAllowed();
  });

  it('the artifact carries the repeated calls, their digests and the thresholds', () => {
    const governance = createGovernance(DEFAULT_CONFIG);
    const state = [...governance.replay(search.slice(0, 5)).states.values()][0]!;
    const artifact = governance.artifact(state, governance.decide(state));
    expect(DiagnosticArtifactSchema.parse(artifact)).toEqual(artifact);
    expect(artifact).toMatchObject({
      failure_class: 'no_progress',
      equivalence_key: { tool_name: 'search', error_class: 'no_progress', side_effect_boundary: false },
      next_allowed_action: 'forced_summary',
      no_progress: {
        detector: 'same_call_same_result',
        repeats: 5,
        advise_at: 3,
        block_at: 5,
        read_only: true,
        cycle: null,
      },
    });
    const calls = artifact.no_progress!.calls;
    expect(calls).toHaveLength(5);
    expect(new Set(calls.map((c) => `${c.call_digest}/${c.result_digest}`)).size).toBe(1);
  });

  it('a different answer is progress: the key closes and nobody is told', () => {
    const changed = returned(agent, agent.call('search', { arguments: { q: 'q3 revenue' } }), 'a new answer');
    spec
      .given(search.slice(0, 3))
      .when(changed)
      .then({ status: 'resolved', needsDecision: true, decision: { intervene: false } });
  });

  it('a write repeated with the same result is worse: advised at 2, blocked at 3, paged at 5', () => {
    const writer = new SpecAgent(timeline, 'acme', 'ops', 'run-write', { effect: 'write' });
    const writes = repeats(writer, 'post_comment', 5, 'ok', { text: 'done' });
    spec
      .given(writes.slice(0, 1))
      .when(writes[1]!)
      .then({ status: 'open', decision: { level: 'advise' } });
    spec
      .given(writes.slice(0, 2))
      .when(writes[2]!)
      .then({ status: 'exhausted', decision: { level: 'block' } });
    spec
      .given(writes.slice(0, 4))
      .when(writes[4]!)
      .then({ status: 'exhausted', needsDecision: true, decision: { level: 'page' } });
  });

  it('an outcome delivered twice (same call id) counts once', () => {
    spec.given(search.slice(0, 2)).when(search[1]!).thenNothingChanged();
  });

  it('an outcome without a digest (an older producer) is not counted', () => {
    spec
      .given([])
      .when(agent.succeeded(agent.call('search')))
      .thenNothingChanged();
  });

  it('an operator reset forgets the loop', () => {
    const governance = createGovernance(DEFAULT_CONFIG);
    const state = [...governance.replay(search.slice(0, 5)).states.values()][0]!;
    const reset = new SpecOperator(timeline, 'acme', 'carol').resolves(state.keyId, 'reset', 'new index deployed');
    spec
      .given(search.slice(0, 5))
      .when(reset)
      .then({ status: 'resolved', retryCount: 0, decision: { intervene: false } });
  });
});

describe('near-duplicates: volatile argument fields', () => {
  it('given calls that differ only in a request id, they count as the same call', () => {
    const agent = agentIn('run-near');
    const events = [1, 2, 3].map((i) =>
      returned(agent, agent.call('search', { arguments: { q: 'q3', requestId: `r-${i}` } }), 'same'),
    );
    governanceSpec().given(events.slice(0, 2)).when(events[2]!).then({ status: 'open', retryCount: 3 });
  });

  it('a field the policy marks volatile for one tool only', () => {
    const config = loadConfig({ noProgress: { volatileFields: { search: ['cursor'] } } });
    const agent = agentIn('run-cursor');
    const events = [1, 2, 3].map((i) =>
      returned(agent, agent.call('search', { arguments: { q: 'q3', cursor: `c${i}` } }), 'same'),
    );
    governanceSpec(config).given(events.slice(0, 2)).when(events[2]!).then({ status: 'open', retryCount: 3 });
    // Without the marking an advancing cursor is a different call each time: nothing found, no key.
    governanceSpec().given(events.slice(0, 2)).when(events[2]!).thenRemembers({ level: null, streak: 1 });
  });
});

describe('cycles', () => {
  it('given A-B-A-B with unchanged results, when the run goes round a third time, then it is advised with the cycle', () => {
    const agent = agentIn('run-cycle');
    const turn = () => [
      returned(agent, agent.call('read_file', { arguments: { path: 'a.ts' } }), 'A'),
      returned(agent, agent.call('read_file', { arguments: { path: 'b.ts' } }), 'B'),
    ];
    const events = [...turn(), ...turn(), ...turn()];
    const config = loadConfig({ noProgress: { sameCall: { read: { adviseAt: 10, blockAt: 12 } } } });
    const result = governanceSpec(config)
      .given(events.slice(0, 5))
      .when(events[5]!)
      .then({ classificationReason: 'no_progress:cycle', status: 'open', decision: { nextAction: 'change_approach' } });
    expect(result.changed[0]!.progress!.cycle).toHaveLength(2);
  });
});

describe("cycles across tools (each tool's key sees its share of the cycle)", () => {
  // read_file(a) / list_dir(b) alternating with unchanged results: no key holds both tools, but the
  // read_file key sees read_file(a) repeated once per turn (and list_dir's key list_dir(b)), so the
  // same-call detector stops the cycle at the same number of turns a run-wide cycle detector would.
  const agent = agentIn('run-cross-tool');
  const turn = () => [
    returned(agent, agent.call('read_file', { arguments: { path: 'a.ts' } }), 'A'),
    returned(agent, agent.call('list_dir', { arguments: { path: 'b' } }), 'B'),
  ];
  const events = [...turn(), ...turn(), ...turn(), ...turn(), ...turn()];
  const spec = governanceSpec();

  it('given two turns of read_file(a) / list_dir(b), when read_file(a) returns the same a third time, then the run is advised', () => {
    spec
      .given(events.slice(0, 4))
      .when(events[4]!)
      .then({
        failureClass: 'no_progress',
        status: 'open',
        retryCount: 3,
        classificationReason: 'no_progress:same_call_same_result',
        decision: { level: 'advise', nextAction: 'change_approach' },
      });
  });

  it('given four turns, when read_file(a) starts the fifth with the same result, then it is blocked (call 9 of the run)', () => {
    spec
      .given(events.slice(0, 8))
      .when(events[8]!)
      .then({ status: 'exhausted', retryCount: 5, decision: { level: 'block', nextAction: 'forced_summary' } });
  });

  it("given the two tools each cycling between two paths (a cycle of four calls), when the third turn ends, then list_dir's key sees its cycle", () => {
    const four = () => [
      returned(agent, agent.call('read_file', { arguments: { path: 'x.ts' } }), 'X'),
      returned(agent, agent.call('list_dir', { arguments: { path: 'p' } }), 'P'),
      returned(agent, agent.call('read_file', { arguments: { path: 'y.ts' } }), 'Y'),
      returned(agent, agent.call('list_dir', { arguments: { path: 'q' } }), 'Q'),
    ];
    const cycle = [...four(), ...four(), ...four()];
    const result = governanceSpec()
      .given(cycle.slice(0, 11))
      .when(cycle[11]!)
      .then({ classificationReason: 'no_progress:cycle', status: 'open', decision: { nextAction: 'change_approach' } });
    expect(result.changed[0]!.key.equivalenceKey.tool_name).toBe('list_dir');
    expect(result.changed[0]!.progress!.cycle).toHaveLength(2);
  });
});

describe('polling without change', () => {
  const config = loadConfig({
    noProgress: { polling: { tools: ['job_status'], adviseAt: 2, blockAt: 4, baseDelayMs: 1000 } },
  });
  const spec = governanceSpec(config);
  const agent = agentIn('run-poll');
  const polls = (results: readonly string[]) =>
    results.map((r) => returned(agent, agent.call('job_status', { arguments: { job: 'j-1' } }), r));

  it('given unchanged polls, when they reach adviseAt, then it advises a delay that doubles per unchanged poll', () => {
    const stuck = polls(['running', 'running', 'running', 'running']);
    spec
      .given(stuck.slice(0, 2))
      .when(stuck[2]!)
      .then({
        status: 'open',
        decision: {
          level: 'advise',
          nextAction: 'poll_less_often',
          backoff: expect.objectContaining({ delayMs: 1000, source: 'no_progress_poll' }),
        },
      });
    const governance = createGovernance(config);
    const state = [...governance.replay(stuck).states.values()][0]!;
    expect(state.progress!.delayMs).toBe(2000);
  });

  it('given a poll advised to wait, preflight refuses the next poll inside the delay and allows it after', () => {
    const stuck = polls(['running', 'running', 'running']);
    const given = spec.given(stuck);
    const last = stuck[2]!.time;
    given
      .whenPreflight('acme', agent.call('job_status', { arguments: { job: 'j-1' } }), last)
      .thenDenied({ decision: { nextAction: 'poll_less_often' } });
    const later = new Date(Date.parse(last) + 1001).toISOString();
    given.whenPreflight('acme', agent.call('job_status', { arguments: { job: 'j-1' } }), later).thenAllowed();
  });

  it('past the longer budget the stuck poller is blocked', () => {
    const stuck = polls(['running', 'running', 'running', 'running', 'running']);
    spec
      .given(stuck.slice(0, 4))
      .when(stuck[4]!)
      .then({ status: 'exhausted', decision: { level: 'block', nextAction: 'forced_summary' } });
  });

  it('a poll whose result changed resets the count', () => {
    const moving = polls(['queued', 'queued', 'running']);
    spec.given(moving.slice(0, 2)).when(moving[2]!).thenRemembers({ level: null, streak: 1, repeats: 0 });
  });
});

describe('the policy section', () => {
  it('is hashed into the policy version; absent, the defaults apply and the version is unchanged', () => {
    expect(policyVersion(loadConfig({ noProgress: { window: 20 } }))).not.toBe(policyVersion(DEFAULT_CONFIG));
    expect(policyVersion(loadConfig({}))).toBe(policyVersion(DEFAULT_CONFIG));
  });

  it('refuses thresholds out of order or beyond the window, naming the field', () => {
    expect(() => loadConfig({ noProgress: { sameCall: { read: { adviseAt: 5, blockAt: 3 } } } })).toThrow(
      /noProgress\.sameCall\.read\.blockAt: must be at least adviseAt \(5\)/,
    );
    expect(() => loadConfig({ noProgress: { window: 4 } })).toThrow(TokenCircuitConfigError);
    expect(() => loadConfig({ noProgress: { enabled: 'yes' } })).toThrow(/noProgress\.enabled/);
  });

  it('enabled: false turns every detector off', () => {
    const agent = agentIn('run-off');
    const events = repeats(agent, 'search', 6);
    governanceSpec(loadConfig({ noProgress: { enabled: false } }))
      .given(events.slice(0, 5))
      .when(events[5]!)
      .thenNothingChanged();
  });
});
