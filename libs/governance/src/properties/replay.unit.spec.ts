import { DiagnosticArtifactSchema, InterventionDataSchema, type AgentEvent } from '@tokencircuit/contracts';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { interventionFor } from '../artifact/intervention.js';
import { DEFAULT_CONFIG, loadConfig } from '../config/load-config.js';
import { decide } from '../decide/decide.js';
import type { FailureState } from '../model.js';
import { rememberIn, type ProgressMemory } from '../progress/progress-memory.js';
import { buildTrace, traceSteps } from '../testing/trace-arbitrary.js';
import { isAcknowledgementOnly } from '../episode/acknowledgement.js';
import { EpisodeLifecycle } from '../testing/episode-spec.js';
import { createGovernance } from '../governance.js';

const governance = createGovernance(DEFAULT_CONFIG);

const ISSUED_AT = '2025-03-02T00:00:00.000Z';
const RUNS = { numRuns: 150 };

/** Everything a replay produces, as bytes: states, decisions, outbox ids, interventions. */
function replayBytes(events: readonly AgentEvent[], config = DEFAULT_CONFIG): string {
  const { states, outbox } = createGovernance(config).replay(events);
  const sorted = [...states.values()].sort((a, b) => a.keyId.localeCompare(b.keyId));
  return JSON.stringify({
    states: sorted,
    decisions: sorted.map((s) => decide(s, config)),
    outbox: outbox.map((e) => e.id),
    interventions: outbox.map((e) => interventionFor(e, config, ISSUED_AT)),
  });
}

describe('replay is exact', () => {
  it('replaying any trace gives identical states, decisions and artifact bytes', () => {
    fc.assert(
      fc.property(traceSteps(), (steps) => {
        const events = buildTrace(steps, DEFAULT_CONFIG);
        expect(replayBytes(events)).toBe(replayBytes(events));
      }),
      RUNS,
    );
  });

  it('delivering every event twice changes nothing (duplicates are skipped by id)', () => {
    fc.assert(
      fc.property(traceSteps(), (steps) => {
        const events = buildTrace(steps, DEFAULT_CONFIG);
        expect(replayBytes(events.flatMap((e) => [e, structuredClone(e)]))).toBe(replayBytes(events));
      }),
      RUNS,
    );
  });

  it('redelivering an earlier stretch of the log after a crash changes nothing', () => {
    fc.assert(
      fc.property(traceSteps(), fc.nat(), fc.nat(), (steps, a, b) => {
        const events = buildTrace(steps, DEFAULT_CONFIG);
        const from = a % events.length;
        const to = from + (b % (events.length - from + 1));
        const crashed = [
          ...events.slice(0, to),
          ...events.slice(from, to).map((e) => structuredClone(e)),
          ...events.slice(to),
        ];
        expect(replayBytes(crashed)).toBe(replayBytes(events));
      }),
      RUNS,
    );
  });

  it('the projector path (projectEvent over a plain map of every state) equals the indexed reference fold', () => {
    fc.assert(
      fc.property(traceSteps(), (steps) => {
        const events = buildTrace(steps, DEFAULT_CONFIG);
        const states = new Map<string, FailureState>();
        const memories = new Map<string, ProgressMemory>();
        const outbox: string[] = [];
        for (const event of events) {
          const result = governance.project(states.values(), event, memories);
          for (const s of result.changed) states.set(s.keyId, s);
          rememberIn(memories, result.memory);
          outbox.push(...result.outbox.map((e) => e.id));
        }
        const reference = governance.replay(events);
        expect(new Map([...states].sort())).toEqual(new Map([...reference.states].sort()));
        expect(new Map([...memories].sort())).toEqual(new Map([...reference.memories].sort()));
        expect(outbox).toEqual(reference.outbox.map((e) => e.id));
      }),
      RUNS,
    );
  });

  it('outbox ids are unique: a transition is decided once', () => {
    fc.assert(
      fc.property(traceSteps(), (steps) => {
        const { outbox } = governance.replay(buildTrace(steps, DEFAULT_CONFIG));
        expect(new Set(outbox.map((e) => e.id)).size).toBe(outbox.length);
      }),
      RUNS,
    );
  });
});

describe('budgets hold on every trace', () => {
  const configs = [
    DEFAULT_CONFIG,
    loadConfig({
      classes: { transient: { budget: 3 }, validation: { budget: 0 } },
      unsafeOverride: { classes: ['permission', 'invariant_violation'], approvedBy: 'ciso', reason: 'property test' },
    }),
  ];

  it('no key ever counts more legitimate attempts than its budget (plus audited grants)', () => {
    fc.assert(
      fc.property(traceSteps(), fc.constantFrom(...configs), (steps, config) => {
        const { states, outbox } = createGovernance(config).replay(buildTrace(steps, config));
        for (const s of [...states.values(), ...outbox.map((e) => e.snapshot)]) {
          expect(s.legitimateAttempts).toBeLessThanOrEqual(s.budget + s.overrideGrants);
          // A key a verifier reclassified carries its earlier attempts into the new class's budget only up to
          // that budget (spent, never overdrawn), while retryCount keeps counting every attempt made.
          if (s.classificationReason.includes('>verifier:')) {
            expect(s.legitimateAttempts + s.violations).toBeLessThanOrEqual(s.retryCount);
          } else {
            expect(s.legitimateAttempts + s.violations).toBe(s.retryCount);
          }
        }
      }),
      RUNS,
    );
  });

  it('permission and invariant keys never allow a retry without an operator resolution', () => {
    fc.assert(
      fc.property(traceSteps(), (steps) => {
        const { states, outbox } = governance.replay(buildTrace(steps, DEFAULT_CONFIG));
        for (const s of [...states.values(), ...outbox.map((e) => e.snapshot)]) {
          if (s.failureClass !== 'permission' && s.failureClass !== 'invariant_violation') continue;
          expect(s.budget).toBe(0);
          expect(s.overrideGrants).toBe(0);
          expect(s.legitimateAttempts).toBe(0);
          if (s.status !== 'resolved') {
            expect(s.status).toBe('blocked');
            expect(decide(s, DEFAULT_CONFIG).nextAction).toMatch(
              /^(stop_request_authorization|fail_closed_page_human)$/,
            );
          }
        }
      }),
      RUNS,
    );
  });
});

describe('artifacts are evidence', () => {
  it('every intervention validates against the contract and its artifact carries all raw key fields, deeply frozen', () => {
    fc.assert(
      fc.property(traceSteps(), (steps) => {
        const { outbox } = governance.replay(buildTrace(steps, DEFAULT_CONFIG));
        for (const entry of outbox) {
          const intervention = interventionFor(entry, DEFAULT_CONFIG, ISSUED_AT);
          if (intervention === null) {
            // Nothing to tell the agents, or an acknowledgement (told to the on-call people as an episode step).
            expect(
              decide(entry.snapshot, DEFAULT_CONFIG).intervene === false || isAcknowledgementOnly(entry.snapshot),
            ).toBe(true);
            continue;
          }
          expect(InterventionDataSchema.parse(intervention)).toEqual(intervention);
          const artifact = DiagnosticArtifactSchema.parse(intervention.artifact);
          expect(artifact.equivalence_key).toEqual(entry.snapshot.key.equivalenceKey);
          expect(Object.keys(artifact.equivalence_key).sort()).toEqual([
            'auth_scope',
            'error_class',
            'resource_class',
            'side_effect_boundary',
            'tool_name',
          ]);
          expect(artifact.sample_receipts.length).toBeGreaterThan(0);
          expect(Object.isFrozen(intervention.artifact.equivalence_key)).toBe(true);
          expect(Object.isFrozen(intervention.artifact.causing_event_ids)).toBe(true);
        }
      }),
      { numRuns: 80 },
    );
  });

  it('every episode steps in order: triggered first and once, acknowledged and resolved at most once, ids unique', () => {
    fc.assert(
      fc.property(traceSteps(), (steps) => {
        const lifecycle = new EpisodeLifecycle();
        const made = buildTrace(steps, DEFAULT_CONFIG).flatMap((e) => lifecycle.apply(e));
        expect(new Set(made.map((s) => s.eventId)).size).toBe(made.length);
        const byEpisode = new Map<string, string[]>();
        for (const s of made) byEpisode.set(s.episodeId, [...(byEpisode.get(s.episodeId) ?? []), s.transition]);
        for (const transitions of byEpisode.values()) {
          expect(transitions[0]).toBe('triggered');
          for (const once of ['triggered', 'acknowledged', 'resolved']) {
            expect(transitions.filter((t) => t === once).length).toBeLessThanOrEqual(1);
          }
          const resolvedAt = transitions.indexOf('resolved');
          if (resolvedAt >= 0) expect(resolvedAt).toBe(transitions.length - 1);
        }
      }),
      { numRuns: 80 },
    );
  });
});
