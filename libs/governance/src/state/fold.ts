import { identityOfEvent, type AgentEvent } from '@tokencircuit/contracts';
import type { TokenCircuitConfig } from '../config/config.js';
import { route } from '../keys/route.js';
import type { FailureState } from '../model.js';
import type { ProgressMemory } from '../progress/progress-memory.js';
import { MemoryStateStore } from './memory-state-store.js';
import type { OutboxEntry } from './outbox-entry.js';
import { project } from './project-event.js';

export interface Replay {
  readonly states: ReadonlyMap<string, FailureState>;
  /** The run memories left (no_progress rings where no detector has found anything yet), by id. */
  readonly memories: ReadonlyMap<string, ProgressMemory>;
  /** Every outbox entry in the order the transitions happened (ids are unique). */
  readonly outbox: readonly OutboxEntry[];
}

/**
 * The reference fold: what failure_state must equal after any crash or redelivery. Events whose
 * (tenant, id, source) was already folded are skipped, as the agent_events primary key makes the database skip them.
 */
export function replay(events: Iterable<AgentEvent>, config: TokenCircuitConfig): Replay {
  const store = new MemoryStateStore();
  const seen = new Set<string>();
  const outbox: OutboxEntry[] = [];
  for (const event of events) {
    const identity = identityOfEvent(event);
    if (seen.has(identity)) continue;
    seen.add(identity);
    const routed = route(event, config);
    const result = project(store.candidates(routed), event, routed, config, store);
    for (const state of result.changed) store.put(state);
    store.remember(result.memory);
    for (const entry of result.outbox) outbox.push(entry);
  }
  return { states: store.states, memories: store.memories, outbox };
}
