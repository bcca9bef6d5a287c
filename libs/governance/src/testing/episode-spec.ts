import type { AgentEvent, EpisodeEventData } from '@tokencircuit/contracts';
import { expect } from 'vitest';
import type { TokenCircuitConfig } from '../config/config.js';
import { DEFAULT_CONFIG } from '../config/load-config.js';
import { evolveEpisode, type EpisodeRecord } from '../episode/episode-record.js';
import { episodeSteps } from '../episode/episode-steps.js';
import { createGovernance, type Governance } from '../governance.js';
import type { FailureState } from '../model.js';
import { rememberIn, type ProgressMemory } from '../progress/progress-memory.js';

/** The lifecycle steps a sequence of events makes, as the projector and the decision relay would. */
export class EpisodeLifecycle {
  private readonly states = new Map<string, FailureState>();
  private readonly memories = new Map<string, ProgressMemory>();
  private readonly records = new Map<string, EpisodeRecord | null>();

  private readonly governance: Governance;

  constructor(private readonly config: TokenCircuitConfig = DEFAULT_CONFIG) {
    this.governance = createGovernance(config);
  }

  apply(event: AgentEvent): EpisodeEventData[] {
    const { changed, outbox, memory } = this.governance.project(this.states.values(), event, this.memories);
    for (const s of changed) this.states.set(s.keyId, s);
    rememberIn(this.memories, memory);
    const steps: EpisodeEventData[] = [];
    for (const entry of outbox) {
      const intervention = this.governance.intervention(entry, entry.snapshot.updatedAt);
      const made = episodeSteps(this.records.get(entry.keyId) ?? null, entry, intervention, this.config);
      this.records.set(entry.keyId, made.reduce(evolveEpisode, this.records.get(entry.keyId) ?? null));
      steps.push(...made);
    }
    return steps;
  }
}

/** given/when/then over the lifecycle: `then` lists the steps `when` makes (any subset of their fields). */
export function episodeSpec(config: TokenCircuitConfig = DEFAULT_CONFIG) {
  return {
    given(events: readonly AgentEvent[]) {
      return {
        when(event: AgentEvent) {
          return {
            then(expected: readonly Partial<EpisodeEventData>[]): EpisodeEventData[] {
              const lifecycle = new EpisodeLifecycle(config);
              for (const e of events) lifecycle.apply(e);
              const steps = lifecycle.apply(event);
              expect(steps, 'the lifecycle steps of the event').toHaveLength(expected.length);
              expected.forEach((want, i) => expect(steps[i]).toMatchObject(want));
              return steps;
            },
          };
        },
      };
    },
  };
}
