import { SpecAgent, Timeline } from '@tokencircuit/contracts/testing';
import type { AgentEvent } from '@tokencircuit/contracts';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config/load-config.js';
import { createGovernance } from '../governance.js';
import { returned } from './spec-support.js';

/** Folds events one by one, checking after each what `check` says about every no_progress state. */
function foldChecking(
  governance: ReturnType<typeof createGovernance>,
  events: readonly AgentEvent[],
  check: (stopped: boolean, index: number) => void,
) {
  for (let i = 1; i <= events.length; i += 1) {
    const states = [...governance.replay(events.slice(0, i)).states.values()].filter(
      (s) => s.failureClass === 'no_progress',
    );
    check(
      states.some((s) => s.status === 'exhausted' || s.status === 'blocked'),
      i,
    );
  }
}

const thresholds = fc
  .record({ adviseAt: fc.integer({ min: 2, max: 6 }), extra: fc.integer({ min: 0, max: 6 }) })
  .map(({ adviseAt, extra }) => ({ adviseAt, blockAt: adviseAt + extra }));

describe('no_progress properties', () => {
  it('a run that never repeats a (call, result) is never stopped, whatever the thresholds', () => {
    fc.assert(
      fc.property(
        thresholds,
        fc.uniqueArray(fc.tuple(fc.constantFrom('search', 'read_file'), fc.string({ maxLength: 6 })), {
          minLength: 1,
          maxLength: 30,
          selector: ([tool, arg]) => `${tool}/${arg}`,
        }),
        fc.array(fc.constantFrom('r1', 'r2', 'r3'), { minLength: 30, maxLength: 30 }),
        (t, calls, results) => {
          const config = loadConfig({ noProgress: { sameCall: { read: t }, cycle: t } });
          const agent = new SpecAgent(new Timeline(), 'acme', 'a', 'run-1', { effect: 'read' });
          const events = calls.map(([tool, arg], i) =>
            returned(agent, agent.call(tool, { arguments: { arg } }), results[i]!),
          );
          const governance = createGovernance(config);
          foldChecking(governance, events, (stopped) => expect(stopped).toBe(false));
        },
      ),
      { numRuns: 60 },
    );
  });

  it('a run repeating the same call with the same result is stopped by blockAt, and preflight refuses the next repeat', () => {
    fc.assert(
      fc.property(
        thresholds,
        fc.constantFrom('read' as const, 'write' as const),
        fc.array(fc.string({ maxLength: 4 }), { maxLength: 10 }),
        (t, effect, noise) => {
          const config = loadConfig({ noProgress: { sameCall: { read: t, write: { ...t, pageAt: null } } } });
          const timeline = new Timeline();
          const agent = new SpecAgent(timeline, 'acme', 'a', 'run-1', { effect });
          const events: AgentEvent[] = [];
          // Other calls of another tool interleaved: they neither help nor hide the loop.
          for (let i = 0; i < t.blockAt; i += 1) {
            events.push(returned(agent, agent.call('search', { arguments: { q: 'same' } }), 'same'));
            const other = noise[i];
            if (other !== undefined) events.push(returned(agent, agent.call('fetch', { arguments: { other } }), other));
          }
          const governance = createGovernance(config);
          const states = [...governance.replay(events).states.values()];
          const loop = states.find((s) => s.key.equivalenceKey.tool_name === 'search')!;
          expect(loop.status).toBe('exhausted');
          const answer = governance.preflight(
            states,
            'acme',
            agent.call('search', { arguments: { q: 'same' } }),
            timeline.now(),
          );
          expect(answer.allow).toBe(false);
        },
      ),
      { numRuns: 80 },
    );
  });

  it('a cycle across tools (up to cycle.maxLength calls, results unchanged) is stopped within the budget', () => {
    fc.assert(
      fc.property(
        thresholds,
        thresholds,
        fc.integer({ min: 2, max: 6 }),
        fc.uniqueArray(fc.tuple(fc.constantFrom('read_file', 'list_dir', 'search'), fc.constantFrom('a', 'b', 'c')), {
          minLength: 2,
          maxLength: 6,
          selector: ([tool, arg]) => `${tool}/${arg}`,
        }),
        (same, cycle, maxLength, calls) => {
          fc.pre(calls.length <= maxLength);
          const config = loadConfig({ noProgress: { sameCall: { read: same }, cycle: { ...cycle, maxLength } } });
          const agent = new SpecAgent(new Timeline(), 'acme', 'a', 'run-1', { effect: 'read' });
          // Each turn makes the same calls in the same order, each with the same result as before.
          const budget = Math.max(same.blockAt, cycle.blockAt);
          const events: AgentEvent[] = [];
          for (let turn = 0; turn < budget; turn += 1)
            for (const [tool, arg] of calls)
              events.push(returned(agent, agent.call(tool, { arguments: { arg } }), `${tool}/${arg}`));
          const governance = createGovernance(config);
          const states = [...governance.replay(events).states.values()];
          expect(states.some((s) => s.status === 'exhausted')).toBe(true);
        },
      ),
      { numRuns: 120 },
    );
  });

  it('polling whose result changes is never stopped nor slowed', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.string({ maxLength: 8 }), { minLength: 1, maxLength: 40 }),
        fc.integer({ min: 2, max: 5 }),
        (results, adviseAt) => {
          const config = loadConfig({
            noProgress: { polling: { tools: ['job_status'], adviseAt, blockAt: adviseAt + 1 } },
          });
          const timeline = new Timeline();
          const agent = new SpecAgent(timeline, 'acme', 'a', 'run-1', { effect: 'read' });
          const events = results.map((r) => returned(agent, agent.call('job_status', { arguments: { job: 'j' } }), r));
          const governance = createGovernance(config);
          const states = [...governance.replay(events).states.values()];
          expect(states.every((s) => s.status === 'resolved')).toBe(true);
          expect(
            governance.preflight(states, 'acme', agent.call('job_status', { arguments: { job: 'j' } }), timeline.now())
              .allow,
          ).toBe(true);
          foldChecking(governance, events, (stopped) => expect(stopped).toBe(false));
        },
      ),
      { numRuns: 60 },
    );
  });
});
