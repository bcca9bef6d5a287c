import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseAgentEvent, type AgentEvent } from '@tokencircuit/contracts';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG, loadConfig } from '../config/load-config.js';
import { buildTrace, traceSteps } from '../testing/trace-arbitrary.js';
import { WhatIf, whatIf } from './what-if.js';

const TRACES = fileURLToPath(new URL('../../../../examples/traces/', import.meta.url));
const rfcTraces = (): AgentEvent[] =>
  readdirSync(TRACES)
    .filter((name) => name.endsWith('.jsonl'))
    .sort()
    .flatMap((name) =>
      readFileSync(TRACES + name, 'utf8')
        .trim()
        .split('\n')
        .map((line) => parseAgentEvent(JSON.parse(line))),
    );

const RESEARCH_KEY = 'run|acme|run=run-research|web_search|api_endpoint|search:query|transient|seb=0';

describe('what-if replay', () => {
  it('finds no difference between a policy and itself, for any trace', () => {
    fc.assert(
      fc.property(traceSteps(), (steps) => {
        const report = whatIf(buildTrace(steps, DEFAULT_CONFIG), DEFAULT_CONFIG, loadConfig({}));
        expect(report.changedKeys).toEqual([]);
        expect(report.changedAttempts).toEqual([]);
        expect(report.summary.interventions.candidate).toEqual(report.summary.interventions.baseline);
        expect(report.summary.attempts.stopped + report.summary.attempts.letThrough).toBe(0);
      }),
      { numRuns: 60 },
    );
  }, 30_000);

  it('given the RFC traces, when the transient budget drops from 2 to 1, then exactly the research key changes and its third search is stopped', () => {
    const report = whatIf(rfcTraces(), DEFAULT_CONFIG, loadConfig({ classes: { transient: { budget: 1 } } }));
    expect(report.changedKeys.map((k) => k.keyId)).toEqual([RESEARCH_KEY]);
    const [key] = report.changedKeys;
    expect(key!.firstDifference).toMatchObject({
      eventId: 'rfc3-e02',
      baseline: { level: 'advise', nextAction: 'retry_with_backoff', budget: 2 },
      candidate: { level: 'advise', nextAction: 'retry_with_backoff', budget: 1 },
    });
    expect(key!.interventions.candidate).toBeGreaterThan(key!.interventions.baseline);
    expect(report.changedAttempts).toEqual([
      expect.objectContaining({ eventId: 'rfc3-e05', change: 'stopped', possibleDuplicateSideEffect: false }),
    ]);
    expect(report.summary.attempts).toMatchObject({ stopped: 1, letThrough: 0 });
  });

  it('given the RFC traces, when validation gets no repair attempt, then the travel key is exhausted at its first failure', () => {
    const report = whatIf(rfcTraces(), DEFAULT_CONFIG, loadConfig({ classes: { validation: { budget: 0 } } }));
    // RFC 4's key changes too: once its verifier judges the query wrong, it is a validation key.
    expect(report.changedKeys.map((k) => k.failureClass)).toEqual(['validation', 'validation']);
    const travel = report.changedKeys.find((k) => k.firstDifference?.eventId === 'rfc2-e02');
    expect(travel?.firstDifference).toMatchObject({
      eventId: 'rfc2-e02',
      baseline: { level: 'advise', nextAction: 'correct_arguments' },
      candidate: { level: 'block', nextAction: 'forced_summary', status: 'exhausted' },
    });
  });

  it('flags a write let through while the baseline held it for reconciliation as a possible duplicate side effect', () => {
    const events = rfcTraces().filter((e) => e.id.startsWith('rfc5-e0') && e.id <= 'rfc5-e02');
    const first = events[0] as AgentEvent & { type: 'tool_call.requested' };
    // Another run of the same principal re-sends the invoice while the first one's effect is unknown.
    const resend = parseAgentEvent({
      ...first,
      id: 'rfc5-resend',
      time: '2026-03-02T09:00:05.000Z',
      data: { call: { ...first.data.call, run: 'run-billing-2', callId: 'resend-1' } },
    });
    const fleetWide = loadConfig({ classes: { ambiguous_effect: { scope: 'fleet' } } });
    const report = whatIf([...events, resend], fleetWide, DEFAULT_CONFIG);
    expect(report.changedAttempts).toEqual([
      expect.objectContaining({ eventId: 'rfc5-resend', change: 'let_through', possibleDuplicateSideEffect: true }),
    ]);
    expect(report.summary.attempts.possibleDuplicateSideEffects).toBe(1);
  });

  it('skips an event delivered twice, as the fold does', () => {
    const events = rfcTraces();
    const candidate = loadConfig({ classes: { transient: { budget: 1 } } });
    const twice = new WhatIf(DEFAULT_CONFIG, candidate);
    for (const event of [...events, ...events]) twice.push(event);
    expect(twice.report()).toEqual(whatIf(events, DEFAULT_CONFIG, candidate));
  });

  it('ranks the keys whose blocks appear or vanish before those whose advice changes', () => {
    const report = whatIf(
      rfcTraces(),
      DEFAULT_CONFIG,
      loadConfig({ classes: { transient: { budget: 1 }, validation: { budget: 0 } } }),
    );
    expect(report.changedKeys.map((k) => k.failureClass)).toEqual(['validation', 'validation', 'transient']);
  });
});
