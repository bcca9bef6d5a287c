import { SpecAgent, Timeline } from '@tokencircuit/contracts/testing';
import type { AgentEvent } from '@tokencircuit/contracts';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG, loadConfig, TokenCircuitConfigError } from '../config/load-config.js';
import { withNoProgressThresholds } from '../progress/progress-thresholds.js';
import { returned } from '../progress/spec-support.js';
import { whatIf } from './what-if.js';

const timeline = new Timeline();
const agentIn = (run: string) => new SpecAgent(timeline, 'acme', 'researcher', run, { effect: 'read' });

/** A run searching the same thing `times` times with the same answer. */
function searching(run: string, times: number): AgentEvent[] {
  const agent = agentIn(run);
  return Array.from({ length: times }, () =>
    returned(agent, agent.call('search', { arguments: { q: 'q3 revenue' } }), 'same answer'),
  );
}

/** A run alternating read_file(a) / read_file(b) for `turns` turns, results unchanged. */
function alternating(run: string, turns: number): AgentEvent[] {
  const agent = agentIn(run);
  return Array.from({ length: turns }, () => [
    returned(agent, agent.call('read_file', { arguments: { path: 'a.ts' } }), 'A'),
    returned(agent, agent.call('read_file', { arguments: { path: 'b.ts' } }), 'B'),
  ]).flat();
}

/** A run that never repeats a call. */
function exploring(run: string, calls: number): AgentEvent[] {
  const agent = agentIn(run);
  return Array.from({ length: calls }, (_, i) =>
    returned(agent, agent.call('search', { arguments: { q: `question ${i}` } }), `answer ${i}`),
  );
}

describe('whatif: no_progress stops per candidate threshold', () => {
  it('given a run searching the same thing 8 times, then the defaults stop it at call 5 and read=8 at call 8', () => {
    const events = [...searching('run-loop', 8), ...exploring('run-fine', 12)];
    const report = whatIf(events, DEFAULT_CONFIG, withNoProgressThresholds(DEFAULT_CONFIG, 'read=8'));
    const { baseline, candidate } = report.summary.noProgress;
    expect(baseline).toMatchObject({
      blockAt: { read: 5, write: 3, cycle: 5, poll: 30 },
      runs: 2,
      runsStopped: 1,
      byDetector: { same_call_same_result: { runs: 1, earliestCall: 5, medianCall: 5 }, cycle: { runs: 0 } },
    });
    expect(baseline.stops).toEqual([
      expect.objectContaining({ run: 'run-loop', tool: 'search', detector: 'same_call_same_result', call: 5 }),
    ]);
    expect(candidate).toMatchObject({ blockAt: { read: 8 }, runsStopped: 1 });
    expect(candidate.stops).toEqual([expect.objectContaining({ run: 'run-loop', call: 8, eventId: events[7]!.id })]);
  });

  it('given the same runs, when the candidate blocks reads only at 10, then it stops no run', () => {
    const events = [...searching('run-loop', 8), ...exploring('run-fine', 12)];
    const report = whatIf(events, DEFAULT_CONFIG, withNoProgressThresholds(DEFAULT_CONFIG, 'read=10'));
    expect(report.summary.noProgress.candidate.runsStopped).toBe(0);
    expect(report.summary.noProgress.candidate.byDetector.same_call_same_result).toEqual({
      runs: 0,
      earliestCall: null,
      medianCall: null,
    });
  });

  it('counts cycles per detector: A-B for 6 turns is stopped at call 10 by 5 turns, at call 6 by cycle=3', () => {
    const baseline = loadConfig({ noProgress: { sameCall: { read: { adviseAt: 10, blockAt: 12 } } } });
    const events = [...alternating('run-cycle', 6), ...searching('run-loop', 6)];
    const report = whatIf(events, baseline, withNoProgressThresholds(baseline, 'cycle=3'));
    const { baseline: before, candidate: after } = report.summary.noProgress;
    expect(before.byDetector.cycle).toEqual({ runs: 1, earliestCall: 10, medianCall: 10 });
    expect(after.byDetector.cycle).toEqual({ runs: 1, earliestCall: 6, medianCall: 6 });
    // The search loop is under the baseline's read threshold of 12 in both.
    expect(before.runsStopped).toBe(1);
    expect(after.runsStopped).toBe(1);
  });

  it('with the detectors off, nothing is stopped and no thresholds are shown', () => {
    const off = loadConfig({ noProgress: { enabled: false } });
    const report = whatIf(searching('run-loop', 8), off, DEFAULT_CONFIG);
    expect(report.summary.noProgress.baseline).toMatchObject({ blockAt: null, runs: 1, runsStopped: 0 });
    expect(report.summary.noProgress.candidate.runsStopped).toBe(1);
  });
});

describe('withNoProgressThresholds', () => {
  it('sets the block thresholds it names and keeps advice no later and a page no earlier', () => {
    const p = withNoProgressThresholds(DEFAULT_CONFIG, 'read=8, write=6, cycle=2, poll=40').noProgress!;
    expect(p.sameCall.read).toEqual({ adviseAt: 3, blockAt: 8, pageAt: null });
    expect(p.sameCall.write).toEqual({ adviseAt: 2, blockAt: 6, pageAt: 6 });
    expect(p.cycle).toMatchObject({ adviseAt: 2, blockAt: 2, maxLength: 4 });
    expect(p.polling).toMatchObject({ adviseAt: 3, blockAt: 40 });
  });

  it('names every problem: an unknown detector, a value out of range, a repeat past the window', () => {
    const problems = (list: string) => {
      try {
        withNoProgressThresholds(DEFAULT_CONFIG, list);
      } catch (error) {
        expect(error).toBeInstanceOf(TokenCircuitConfigError);
        return (error as TokenCircuitConfigError).message;
      }
      throw new Error(`"${list}" was accepted`);
    };
    expect(problems('reads=8,write=1')).toMatch(/"reads=8".*read, write, cycle, poll[\s\S]*write: 1 must be from 2/);
    expect(problems('read=20')).toMatch(/noProgress.sameCall.read: 20 repeats cannot be seen in a window of 16/);
    expect(problems('read=5,read=6')).toMatch(/read: given twice/);
  });

  it('given three runs stuck on one search, then the fleet fold names the loop; a candidate needing four runs does not', () => {
    const events = [
      ...searching('run-a', 6),
      ...searching('run-b', 6),
      ...searching('run-c', 6),
      ...exploring('run-fine', 10),
    ];
    const report = whatIf(events, DEFAULT_CONFIG, loadConfig({ noProgress: { fleet: { runs: 4 } } }));
    const { baseline, candidate } = report.summary.noProgress;
    expect(baseline.fleetLoops).toEqual([
      expect.objectContaining({ tool: 'search', runs: 3, level: 'block', firstSeen: events[4]!.time }),
    ]);
    expect(baseline.fleetLoops[0]!.callDigest).toMatch(/^\S+$/);
    expect(candidate.fleetLoops).toEqual([]);
  });
});
