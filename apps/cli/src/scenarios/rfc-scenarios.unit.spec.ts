import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseAgentEvent, ToolCallSchema, type AgentEvent } from '@tokencircuit/contracts';
import { createGovernance, DEFAULT_CONFIG } from '@tokencircuit/governance';
import { simulateTrace } from '../simulate/simulate-trace.js';
import { tracePath, traceText } from './example-traces.js';
import { demoScenarios, EXAMPLE_TRACE_SETTINGS } from './rfc-scenarios.js';
import type { Scenario } from './scenario.js';

const governance = createGovernance(DEFAULT_CONFIG);

// The RFC's five, then the demo's page: all six are example traces.
const examples = demoScenarios(EXAMPLE_TRACE_SETTINGS);
const interventionsOf = (scenario: Scenario) =>
  simulateTrace(
    scenario.steps
      .flatMap((s) => (s.kind === 'event' ? [parseAgentEvent(s.event)] : []))
      .map((event, i) => ({ line: i + 1, event })),
    DEFAULT_CONFIG,
  ).flatMap((d) => (d.intervention ? [`${d.intervention.level} ${d.intervention.nextAction}`] : []));

describe('the RFC scenarios the demo plays and examples/traces/ holds', () => {
  it.each(examples.map((s) => [s.id, s] as const))(
    'the example trace of %s is exactly what the builder writes',
    (_id, scenario) => {
      const file = new URL(`../../../../${tracePath(scenario)}`, import.meta.url);
      expect(readFileSync(file, 'utf8'), 'regenerate: npx tsx apps/cli/src/scenarios/write-example-traces.ts').toBe(
        traceText(scenario),
      );
    },
  );

  it.each(examples.map((s) => [s.id, s] as const))('%s: every event satisfies the v1 contract', (_id, scenario) => {
    for (const step of scenario.steps)
      if (step.kind === 'event') expect(() => parseAgentEvent(step.event)).not.toThrow();
  });

  it.each(examples.map((s) => [s.id, s] as const))(
    '%s: each preflight gets the answer the story expects from the core',
    (_id, scenario) => {
      const before: AgentEvent[] = [];
      for (const step of scenario.steps) {
        if (step.kind === 'event') {
          before.push(parseAgentEvent(step.event));
          continue;
        }
        const { states } = governance.replay(before);
        const answer = governance.preflight(states.values(), step.tenant, ToolCallSchema.parse(step.call), step.at);
        expect({ says: step.says, allow: answer.allow, reason: answer.reason }).toEqual({
          says: step.says,
          allow: step.expect === 'allow',
          reason: expect.any(String),
        });
      }
    },
  );

  it('the interventions each scenario produces read like the RFC’s test cases', () => {
    expect(Object.fromEntries(examples.map((s) => [s.id, interventionsOf(s)]))).toEqual({
      // Budget 0 after the first classified failure; the rephrased query is a violation, not a retry.
      'rfc-1-permission': [
        'block stop_request_authorization',
        'block stop_request_authorization',
        'block stop_request_authorization',
      ],
      // One repair attempt, then forced summary; the identical repeat is refused again.
      'rfc-2-validation': [
        'advise correct_arguments',
        'block forced_summary',
        'block forced_summary',
        'block forced_summary',
      ],
      // Backoff (Retry-After first, then full jitter) within the +2 budget; the success needs no intervention.
      'rfc-3-transient': ['advise retry_with_backoff', 'advise retry_with_backoff'],
      // Valid empty resolves silently; the wrong query is sent back for correction.
      'rfc-4-empty-result': ['advise verify_empty_result', 'advise verify_empty_result', 'advise correct_arguments'],
      // No retry before reconciliation; read-after-write finds the invoice: proceed, never retry.
      'rfc-5-side-effect': ['block reconcile_before_retry', 'advise proceed'],
      // The demo's page: the unknown refund blocks, then pages when read-after-write cannot settle it.
      'page-unknown-refund': ['block reconcile_before_retry', 'page reconcile_before_retry'],
    });
  });

  it('a suffix makes every id, run and principal new, so a second demo starts from fresh state', () => {
    const ids = (scenarios: Scenario[]) =>
      scenarios.flatMap((s) => [
        s.principal,
        ...s.steps.flatMap((step) => (step.kind === 'event' ? [step.event.id, JSON.stringify(step.event.data)] : [])),
      ]);
    const first = new Set(ids(demoScenarios({ tenant: 'demo', suffix: 'a1', start: '2026-03-02T09:00:00Z' })));
    const second = ids(demoScenarios({ tenant: 'demo', suffix: 'b2', start: '2026-03-02T09:00:00Z' }));
    expect(second.filter((id) => first.has(id))).toEqual([]);
  });

  it('every call of a scenario acts as its principal, which is how the demo finds its interventions', () => {
    for (const scenario of examples) {
      for (const step of scenario.steps) {
        const principal =
          step.kind === 'preflight'
            ? step.call.principal
            : 'call' in step.event.data
              ? step.event.data.call.principal
              : scenario.principal;
        expect(principal, `${scenario.id}: ${step.says}`).toBe(scenario.principal);
      }
    }
  });
});
