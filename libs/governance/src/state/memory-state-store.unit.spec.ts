import { SpecAgent, SpecOperator, Timeline } from '@tokencircuit/contracts/testing';
import type { AgentEvent, ToolCallOutcome } from '@tokencircuit/contracts';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config/load-config.js';
import { createGovernance } from '../governance.js';
import type { FailureState } from '../model.js';
import type { ProgressMemories, ProgressMemory, ProgressMemoryWrite } from '../progress/progress-memory.js';
import { progressMemoryIdOfCall } from '../progress/progress-memory.js';
import { progressKeyIdOf } from '../progress/progress-state.js';
import { returned } from '../progress/spec-support.js';
import { MemoryStateStore } from './memory-state-store.js';
import type { OutboxEntry } from './outbox-entry.js';

/** The store as it was before memories lived in their run's index: a Map by id, the oldest forgotten past capacity. */
class MapMemories implements ProgressMemories {
  readonly map = new Map<string, ProgressMemory>();
  constructor(private readonly capacity: number) {}
  get(id: string): ProgressMemory | undefined {
    return this.map.get(id);
  }
  remember(write: ProgressMemoryWrite | null): void {
    if (write === null) return;
    if (write.memory === null) {
      this.map.delete(write.id);
      return;
    }
    const known = this.map.has(write.id);
    this.map.set(write.id, write.memory);
    if (!known && this.map.size > this.capacity) this.map.delete(this.map.keys().next().value!);
  }
}

/** What a projector chunk does: a new store holding the rows it loaded (memories under their stored ids). */
function reloaded(store: MemoryStateStore, capacity: number): MemoryStateStore {
  const next = new MemoryStateStore(capacity);
  for (const state of store.states.values()) next.put(state);
  for (const [id, memory] of store.memories) next.remember({ id, memory });
  return next;
}

const step = fc.record({
  run: fc.constantFrom('run-a', 'run-b', 'run-c'),
  tool: fc.constantFrom('search', 'fetch', 'job_status'),
  arg: fc.constantFrom('x', 'x', 'y'),
  result: fc.constantFrom('r1', 'r1', 'r2'),
  effect: fc.constantFrom('read' as const, 'read' as const, 'write' as const),
  authScope: fc.constantFrom('s1', 's1', null),
  // redeliver: the previous outcome again under a new event id; ack/reset: an operator on the call's key;
  // reload: the store rebuilt from its states and memories, as each projector chunk loads them.
  kind: fc.constantFrom('call', 'call', 'call', 'call', 'call', 'redeliver', 'ack', 'reset', 'reload'),
  // The fold through get alone (a caller without atCall and writeAt): memories looked up and written by their ids.
  byIdOnly: fc.boolean(),
});

describe('the memory store keeps run memories in their run index (property, against a Map keyed by id)', () => {
  it('the same states, outbox and memories, in the same creation order, with or without a capacity and reloads', () => {
    let kept = 0;
    let opened = 0;
    fc.assert(
      fc.property(fc.array(step, { minLength: 10, maxLength: 90 }), fc.constantFrom(3, 5, 1_000), (steps, capacity) => {
        const config = loadConfig({
          noProgress: {
            sameCall: { read: { adviseAt: 2, blockAt: 4 }, write: { adviseAt: 2, blockAt: 3, pageAt: 4 } },
            polling: { tools: ['job_status'] },
          },
        });
        const governance = createGovernance(config);
        const time = new Timeline();
        const operator = new SpecOperator(time, 'acme', 'oncall');
        const agents = new Map<string, SpecAgent>();
        let store = new MemoryStateStore(capacity);
        const reference = new MapMemories(capacity);
        const referenceStates = new Map<string, FailureState>();
        const outbox: OutboxEntry[] = [];
        const referenceOutbox: OutboxEntry[] = [];
        let last: ToolCallOutcome | null = null;
        for (const s of steps) {
          if (s.kind === 'reload') {
            store = reloaded(store, capacity);
            continue;
          }
          const agent =
            agents.get(s.run) ??
            agents.set(s.run, new SpecAgent(time, 'acme', 'bot', s.run, { resourceClass: 'api' })).get(s.run)!;
          const call = agent.call(s.tool, { arguments: { arg: s.arg }, effect: s.effect, authScope: s.authScope });
          let event: AgentEvent;
          if (s.kind === 'redeliver' && last !== null) {
            const again = returned(agent, last.data.call, s.result);
            event = { ...again, data: { ...again.data, resultDigest: last.data.resultDigest } } as AgentEvent;
          } else if (s.kind === 'ack' || s.kind === 'reset') {
            event = operator.resolves(progressKeyIdOf('acme', call), s.kind === 'ack' ? 'acknowledged' : 'reset', 'r');
          } else {
            last = returned(agent, call, s.result) as ToolCallOutcome;
            event = last;
          }
          const routed = governance.route(event);
          const held = store;
          const memories: ProgressMemories = s.byIdOnly ? { get: (id) => held.get(id) } : store;
          const result = governance.project(store.candidates(routed), event, memories, routed);
          store.remember(result.memory);
          for (const state of result.changed) store.put(state);
          outbox.push(...result.outbox);
          const expected = governance.project(referenceStates.values(), event, reference, routed);
          reference.remember(expected.memory);
          for (const state of expected.changed) referenceStates.set(state.keyId, state);
          referenceOutbox.push(...expected.outbox);
          // The store's writes build their id when read: compared by what they hold.
          expect(result.memory && { id: result.memory.id, memory: result.memory.memory }).toEqual(expected.memory);
        }
        expect([...store.memories]).toEqual([...reference.map]);
        expect(store.memoryCount).toBe(reference.map.size);
        expect(new Map(store.states)).toEqual(referenceStates);
        expect(outbox).toEqual(referenceOutbox);
        // Looked up by id alone (specs, tools), every memory is found, and nothing else is.
        for (const [id, memory] of reference.map) expect(store.get(id)).toEqual(memory);
        expect(store.get('w5:other-')).toBeUndefined();
        kept += store.memoryCount;
        opened += store.states.size;
      }),
      { numRuns: 300 },
    );
    // Both sides ran: memories held (and forgotten past small capacities), and keys opened from them.
    expect(kept).toBeGreaterThan(300);
    expect(opened).toBeGreaterThan(50);
  });

  it('given memories dropped by id alone, when the same coordinates succeed again, then a new ring starts there', () => {
    const governance = createGovernance(loadConfig({}));
    const agent = new SpecAgent(new Timeline(), 'acme', 'bot', 'run-1', { resourceClass: 'api' });
    const store = new MemoryStateStore();
    const fold = (event: AgentEvent) =>
      store.remember(governance.project(store.candidates(governance.route(event)), event, store).memory);
    const search = agent.call('search', { arguments: { q: 'a' } });
    fold(returned(agent, search, 'A'));
    fold(returned(agent, agent.call('fetch', { arguments: { q: 'b' } }), 'B'));
    const id = progressMemoryIdOfCall('acme', search);
    store.remember({ id, memory: null });
    expect(store.memoryCount).toBe(1);
    expect(store.get(id)).toBeUndefined();
    fold(returned(agent, agent.call('search', { arguments: { q: 'a' } }), 'A'));
    expect(store.get(id)).toMatchObject({ calls: 1 });
    expect([...store.memories.keys()]).toEqual([progressMemoryIdOfCall('acme', agent.call('fetch', {})), id]);
  });
});
