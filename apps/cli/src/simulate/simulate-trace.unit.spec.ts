import { describe, expect, it } from 'vitest';
import { parseAgentEvent, type AgentEventInput, type ToolCallInput } from '@tokencircuit/contracts';
import { outcome } from '@tokencircuit/contracts/testing';
import { createGovernance, DEFAULT_CONFIG } from '@tokencircuit/governance';
import { simulateTrace, type TracedEvent } from './simulate-trace.js';

const governance = createGovernance(DEFAULT_CONFIG);

const call: ToolCallInput = {
  agent: 'research-agent',
  run: 'run-3',
  callId: 'call-1',
  attempt: 1,
  intentId: 'intent-1',
  tool: 'web_search',
  effect: 'read',
  resourceClass: 'api_endpoint',
  httpMethod: 'GET',
};
const at = (s: number) => new Date(Date.UTC(2026, 2, 2, 9, 0, s)).toISOString();
const traced = (line: number, input: AgentEventInput): TracedEvent => ({ line, event: parseAgentEvent(input) });

const failed503 = traced(
  2,
  outcome(
    'acme',
    call,
    { status: 'failed', error: { httpStatus: 503, headers: { 'retry-after': '30' } } },
    { id: 'e2', time: at(2) },
  ),
);
const retry = { ...call, callId: 'call-2', attempt: 2 };
const succeeded = traced(
  5,
  outcome('acme', retry, { status: 'succeeded', result: { rowCount: 3 } }, { id: 'e5', time: at(40) }),
);

describe('simulateTrace: the decisions and interventions the engine would emit for a trace', () => {
  it('one row per outbox entry, pointing at the input line of the event that caused it', () => {
    const rows = simulateTrace([failed503, succeeded], DEFAULT_CONFIG);
    expect(rows.map((r) => [r.line, r.eventId, r.status, r.decision.nextAction])).toEqual([
      [2, 'e2', 'open', 'retry_with_backoff'],
      [5, 'e5', 'resolved', 'proceed'],
    ]);
  });

  it('the intervention is the core’s, issued at the state’s updatedAt, so a trace always prints the same', () => {
    const [first] = simulateTrace([failed503], DEFAULT_CONFIG);
    expect(first!.intervention).toMatchObject({
      level: 'advise',
      nextAction: 'retry_with_backoff',
      backoff: { delayMs: 30_000, source: 'retry_after', notBefore: at(32) },
      issuedAt: at(2),
      artifact: { failure_class: 'transient', budget: 2, retry_count: 0 },
    });
    expect(simulateTrace([failed503], DEFAULT_CONFIG)).toEqual(simulateTrace([failed503], DEFAULT_CONFIG));
  });

  it('a resolved key needs no intervention: the row says so with a null intervention', () => {
    const rows = simulateTrace([failed503, succeeded], DEFAULT_CONFIG);
    expect(rows[1]!.intervention).toBeNull();
    expect(rows[1]!.decision.intervene).toBe(false);
  });

  it('a redelivered event (same id) is folded once, as the agent_events primary key makes the projector do', () => {
    const once = simulateTrace([failed503], DEFAULT_CONFIG);
    const twice = simulateTrace([failed503, { ...failed503, line: 3 }], DEFAULT_CONFIG);
    expect(twice).toEqual(once);
  });

  it('agrees with the reference fold: every outbox entry, in order', () => {
    const rows = simulateTrace([failed503, succeeded], DEFAULT_CONFIG);
    expect(rows.map((r) => r.outboxId)).toEqual(
      governance.replay([failed503.event, succeeded.event]).outbox.map((e) => e.id),
    );
  });
});
