import { describe, expect, it } from 'vitest';
import { IntentLedger } from './intent-ledger.js';

const ledger = () => {
  let n = 0;
  return new IntentLedger(() => `intent-${++n}`);
};

/** begin → dispatched → settle, as the governor drives one call. */
function attempt(
  l: IntentLedger,
  tool: string,
  args: Record<string, unknown>,
  status: 'succeeded' | 'failed' | 'unknown' | 'denied',
  explicit: string | null = null,
) {
  const call = l.begin(tool, args, explicit);
  if (status !== 'denied') l.dispatched(call.intentId, call.attempt);
  l.settle(call.intentId, status);
  return call;
}

describe('IntentLedger: the intent and attempt rule', () => {
  it('the same tool with structurally equal arguments after a failure is a retry of the same intent', () => {
    const l = ledger();
    expect(attempt(l, 'sql.query', { q: 'SELECT 1', limit: 5 }, 'failed')).toMatchObject({
      intentId: 'intent-1',
      attempt: 1,
    });
    // Key order does not matter: canonical JSON.
    expect(attempt(l, 'sql.query', { limit: 5, q: 'SELECT 1' }, 'failed')).toMatchObject({
      intentId: 'intent-1',
      attempt: 2,
    });
    expect(attempt(l, 'sql.query', { q: 'SELECT 1', limit: 5 }, 'succeeded')).toMatchObject({
      intentId: 'intent-1',
      attempt: 3,
    });
  });

  it('after a success, doing the same thing again is a new intent', () => {
    const l = ledger();
    attempt(l, 'weather', { city: 'Oslo' }, 'succeeded');
    expect(attempt(l, 'weather', { city: 'Oslo' }, 'succeeded')).toMatchObject({ intentId: 'intent-2', attempt: 1 });
  });

  it('different arguments or a different tool are different intents', () => {
    const l = ledger();
    attempt(l, 'weather', { city: 'Oslo' }, 'failed');
    expect(attempt(l, 'weather', { city: 'Bergen' }, 'failed').intentId).toBe('intent-2');
    expect(attempt(l, 'forecast', { city: 'Oslo' }, 'failed').intentId).toBe('intent-3');
  });

  it('a call denied at preflight never ran: it does not use up an attempt number', () => {
    const l = ledger();
    attempt(l, 'invoice.create', { amount: 10 }, 'unknown');
    expect(attempt(l, 'invoice.create', { amount: 10 }, 'denied')).toMatchObject({ intentId: 'intent-1', attempt: 2 });
    expect(attempt(l, 'invoice.create', { amount: 10 }, 'failed')).toMatchObject({ intentId: 'intent-1', attempt: 2 });
  });

  it('inside governor.retry(intentId) the call belongs to that intent whatever its arguments', () => {
    const l = ledger();
    const first = attempt(l, 'sql.query', { q: 'SELEC 1' }, 'failed');
    expect(attempt(l, 'sql.query', { q: 'SELECT 1' }, 'succeeded', first.intentId)).toMatchObject({
      intentId: 'intent-1',
      attempt: 2,
    });
    // An intent id the ledger never saw starts at attempt 1.
    expect(attempt(l, 'sql.query', { q: 'x' }, 'failed', 'caller-chosen')).toMatchObject({
      intentId: 'caller-chosen',
      attempt: 1,
    });
  });

  it('tells each attempt how the last dispatched attempt of its intent ended; a denial does not count', () => {
    const l = ledger();
    expect(attempt(l, 'invoice.create', { amount: 10 }, 'unknown').previousAttempt).toBeNull();
    expect(attempt(l, 'invoice.create', { amount: 10 }, 'denied').previousAttempt).toBe('unknown');
    expect(attempt(l, 'invoice.create', { amount: 10 }, 'failed').previousAttempt).toBe('unknown');
    expect(attempt(l, 'invoice.create', { amount: 10 }, 'succeeded').previousAttempt).toBe('failed');
  });
});
