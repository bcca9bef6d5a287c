import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseAgentEvent, type AgentEvent } from '@tokencircuit/contracts';
import { outcome } from '@tokencircuit/contracts/testing';
import { DEFAULT_CONFIG } from '../config/load-config.js';
import { buildTrace, traceSteps } from '../testing/trace-arbitrary.js';
import { redactEvent } from './redact-event.js';
import { redactEventByWalk } from './spec-support/redact-event-walk.js';

/**
 * redactEvent remembers what it made of short texts (redact.ts, memoised): it must return exactly what the
 * walk it replaced returns, the same refusals included, on a cold memo and on a warm one.
 */
const SECRETS = [
  'ghp_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789',
  'sk_live_51HxAbCdEfGhIjKlMnOpQrSt',
  'Authorization: Bearer abcdefghijklmnop1234',
  'postgres://app:hunter2@db.internal/app',
  'password=correct-horse-battery',
  'ops@example.com',
  'api_endpoint',
  'apiKeyId=Xk3pQ9zR7tV2wY5b',
  'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U',
  '[REDACTED:secret]',
];

type Json = unknown;
/** Every string of `value` replaced, at random, by a secret-laden text (or left alone). */
function planted(value: Json, picks: readonly (number | string)[], at = { i: 0 }): Json {
  const pick = () => picks[at.i++ % picks.length]!;
  if (typeof value === 'string') {
    const p = pick();
    if (typeof p === 'string') return p;
    return p < SECRETS.length ? SECRETS[p] : p === SECRETS.length ? `${value} ${SECRETS[0]}` : value;
  }
  if (Array.isArray(value)) return value.map((v) => planted(v, picks, at));
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, Json> = {};
  for (const [name, member] of Object.entries(value)) {
    const p = pick();
    // Secret-looking member names too, where arguments and headers carry them.
    const key = p === SECRETS.length + 1 ? `${name}_token` : typeof p === 'string' && p.length > 8 ? p : name;
    Object.defineProperty(out, key, {
      value: planted(member, picks, at),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}

const outcomeOf = (act: () => AgentEvent): { event: AgentEvent } | { error: string } => {
  try {
    return { event: act() };
  } catch (error) {
    return { error: `${(error as Error).name}: ${(error as Error).message}` };
  }
};

// Any text, lone surrogates and NUL included, beside the secrets.
const pick = fc.oneof(
  { weight: 4, arbitrary: fc.nat({ max: SECRETS.length * 4 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 30 }) },
);
const events = fc
  .tuple(traceSteps(6), fc.array(pick, { minLength: 1, maxLength: 40 }))
  // Planted after parsing: redaction sees every string, whatever field the contract would let it sit in.
  .map(([steps, picks]) => buildTrace(steps, DEFAULT_CONFIG).map((event) => planted(event, picks) as AgentEvent));

function sameAsWalk(event: AgentEvent): void {
  const expected = outcomeOf(() => redactEventByWalk(event));
  const first = outcomeOf(() => redactEvent(event));
  const again = outcomeOf(() => redactEvent(event));
  expect(first).toStrictEqual(expected);
  expect(again).toStrictEqual(expected);
  // Nothing to redact: the very same object, as before.
  if ('event' in expected && expected.event === event) expect((first as { event: AgentEvent }).event).toBe(event);
}

describe('redactEvent with memoised redaction', () => {
  it('returns what the walk it replaced returns, cold and warm, refusals included', () => {
    fc.assert(
      fc.property(events, (trace) => {
        for (const event of trace) sameAsWalk(event);
      }),
      { numRuns: 150 },
    );
  });

  it('the events above do hold secrets: most are rewritten or refused', () => {
    const sample = fc.sample(events, { numRuns: 100, seed: 1 }).flat();
    const outcomes = sample.map((event) => outcomeOf(() => redactEventByWalk(event)));
    const changed = outcomes.filter((o, i) => 'event' in o && o.event !== sample[i]).length;
    const refused = outcomes.filter((o) => 'error' in o).length;
    expect(changed).toBeGreaterThan(50);
    expect(refused).toBeGreaterThan(20);
  });

  it('refuses a credential in a token field however often it has seen it', () => {
    const input = outcome(
      't',
      { agent: 'a', run: 'r', callId: 'c', attempt: 1, intentId: 'i', tool: 'x', effect: 'read' },
      { status: 'succeeded', provider: 'sk-proj-abcdefghijklmnopqrstuvwxyz0123456789' },
      { id: 'e1', time: '2026-12-01T10:00:00Z' },
    );
    const event = parseAgentEvent(input);
    for (let i = 0; i < 3; i++) expect(() => redactEvent(event)).toThrow(/looks like it holds a credential/);
  });
});
