import { describe, expect, it } from 'vitest';
import { SpecAgent, Timeline } from '@tokencircuit/contracts/testing';
import {
  DEFAULT_CONFIG,
  whatIf,
  withNoProgressThresholds,
  type ChangedKey,
  type WhatIfReport,
} from '@tokencircuit/governance';
import { colours } from '../io/colours.js';
import { whatIfText } from './whatif-text.js';

const plain = colours(false);

/** A report as a fleet's database gives it: far more changed keys than one call takes arguments. */
function reportWith(changed: number): WhatIfReport {
  const base = whatIf([], DEFAULT_CONFIG, DEFAULT_CONFIG);
  const decision = { intervene: true, level: 'block', nextAction: 'stop', status: 'open', retryCount: 1, budget: 1 };
  const changedKeys: ChangedKey[] = Array.from({ length: changed }, (_, i) => ({
    keyId: `key-${String(i).padStart(6, '0')}`,
    tenant: 't',
    failureClass: 'transient',
    tool: 'http_get',
    firstDifference: {
      eventId: `e-${i}`,
      time: '2026-03-01T09:00:00.000Z',
      baseline: null,
      candidate: decision as never,
    },
    interventions: { baseline: 0, candidate: 1 },
  }));
  return { ...base, summary: { ...base.summary, keys: { ...base.summary.keys, changed } }, changedKeys };
}

describe('whatIfText', () => {
  it('shows the top keys and says how many more there are, however many changed', () => {
    const lines = whatIfText(reportWith(300_000), plain, 50);
    expect(lines.filter((line) => line.startsWith('key-'))).toHaveLength(50);
    expect(lines.at(-2)).toBe(
      '… 299950 more changed key(s), less consequential (--top N shows more, --json lists all)',
    );
  });

  it('shows every key when they fit, with no "more" line', () => {
    const lines = whatIfText(reportWith(3), plain, 50);
    expect(lines.filter((line) => line.startsWith('key-'))).toEqual([
      expect.stringContaining('key-000000'),
      expect.stringContaining('key-000001'),
      expect.stringContaining('key-000002'),
    ]);
    expect(lines.some((line) => line.includes('more changed key'))).toBe(false);
  });

  it("shows the runs each policy's no_progress detectors would stop, per detector, at which call", () => {
    const agent = new SpecAgent(new Timeline(), 'acme', 'a', 'run-loop', { effect: 'read' });
    const events = Array.from({ length: 8 }, () => {
      const e = agent.succeeded(agent.call('search', { arguments: { q: 'same' } }), { empty: false });
      return { ...e, data: { ...e.data, resultDigest: `sha256:${'0'.repeat(64)}` } } as typeof e;
    });
    const report = whatIf(events, DEFAULT_CONFIG, withNoProgressThresholds(DEFAULT_CONFIG, 'read=8,write=4'));
    const lines = whatIfText(report, plain);
    expect(lines).toContainEqual(
      expect.stringMatching(/^ {4}block at read\/write\/cycle\/poll +5\/3\/5\/30 +8\/4\/5\/30$/),
    );
    expect(lines).toContainEqual(expect.stringMatching(/^ {4}runs stopped \(of 1\) +1 +1$/));
    expect(lines).toContainEqual(expect.stringMatching(/^ {6}by same_call_same_result +1 @5\/5 +1 @8\/8$/));
    expect(lines).toContainEqual(expect.stringMatching(/^ {6}by cycle +0 +0$/));
  });
});
