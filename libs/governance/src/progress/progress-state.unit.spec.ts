import { SpecAgent, Timeline } from '@tokencircuit/contracts/testing';
import type { ToolCallOutcome } from '@tokencircuit/contracts';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../config/load-config.js';
import { transition } from '../state/transition.js';
import { evolveProgress, openProgress } from './progress-state.js';
import { returned } from './spec-support.js';

const outcome = (agent: SpecAgent, q: string, result: string): ToolCallOutcome =>
  returned(agent, agent.call('search', { arguments: { q } }), result) as ToolCallOutcome;

describe("a successful call's transition of a no_progress key, written as one literal", () => {
  it('given an opened key, when the same search returns the same answer until a block and then a new one, then each state is what transition() with the same patch gives, field order included', () => {
    const agent = new SpecAgent(new Timeline(), 'acme', 'researcher', 'run-1', { principal: 'svc', effect: 'read' });
    const events = [
      ...Array.from({ length: 7 }, () => outcome(agent, 'q3', 'same')),
      outcome(agent, 'q4', 'other'),
      ...Array.from({ length: 4 }, () => outcome(agent, 'q3', 'same')),
    ];
    let state = openProgress(events[0]!, DEFAULT_CONFIG);
    const statuses: string[] = [state.status];
    for (const event of events.slice(1)) {
      const next = evolveProgress(state, event, DEFAULT_CONFIG);
      const { keyId: _id, key: _key, version: _v, updatedAt: _u, causingEventIds: _c, ...patch } = next;
      const generic = transition(state, event, patch);
      expect(JSON.stringify(next)).toBe(JSON.stringify(generic));
      expect(next).toStrictEqual(generic);
      statuses.push(next.status);
      state = next;
    }
    // The walk went through advice, a block, a broken loop and a new episode: every branch of the patch.
    expect(statuses).toContain('open');
    expect(statuses).toContain('exhausted');
    expect(statuses).toContain('resolved');
    expect(state.episode).toBeGreaterThan(1);
  });
});
