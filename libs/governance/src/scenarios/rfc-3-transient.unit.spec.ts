import { describe, expect, it } from 'vitest';
import { decide } from '../decide/decide.js';
import { DEFAULT_CONFIG } from '../config/load-config.js';
import { SpecAgent, Timeline } from '@tokencircuit/contracts/testing';
import { governanceSpec } from '../testing/spec.js';

/**
 * RFC test 3 — Transient: 5xx / timeout with backoff and a small retry budget (+2). Backoff is full
 * jitter, deterministic per key and failure, and never shorter than what the server asked for.
 */
describe('RFC 3: transient — backoff with full jitter, Retry-After honoured, budget +2 then exhausted', () => {
  const timeline = new Timeline();
  const agent = new SpecAgent(timeline, 'acme', 'researcher', 'run-3', {
    resourceClass: 'api_endpoint',
    effect: 'read',
    httpMethod: 'GET',
  });
  const spec = governanceSpec();
  const keyId = 'run|acme|run=run-3|web_search|api_endpoint|~|transient|seb=0';

  const first = agent.call('web_search', { arguments: { q: 'kafka exactly once' } });
  const unavailable = agent.failed(
    first,
    { httpStatus: 503, message: 'upstream unavailable' },
    { requestSent: true, responseReceived: true },
  );
  const retry1 = agent.retry(first);
  const retry2 = agent.retry(retry1);

  it('a 503 opens a run key with budget +2: retry the same intent after a full-jitter backoff', () => {
    const [state] = spec
      .given([])
      .when(unavailable)
      .then({
        keyId,
        failureClass: 'transient',
        budget: 2,
        retryCount: 0,
        status: 'open',
        decision: { level: 'advise', nextAction: 'retry_with_backoff' },
      }).changed;
    const { backoff } = decide(state!, DEFAULT_CONFIG);
    expect(backoff!.source).toBe('exponential_full_jitter');
    expect(backoff!.delayMs).toBeGreaterThanOrEqual(0);
    expect(backoff!.delayMs).toBeLessThanOrEqual(500);
    expect(Date.parse(backoff!.notBefore) - Date.parse(unavailable.time)).toBe(backoff!.delayMs);
  });

  it('the jitter window doubles with each retry used, up to the cap', () => {
    const states = spec
      .given([unavailable, agent.requested(retry1), agent.failed(retry1, { httpStatus: 502 })])
      .states();
    const state = states.get(keyId)!;
    expect(state).toMatchObject({ retryCount: 1, status: 'open' });
    const { backoff } = decide(state, DEFAULT_CONFIG);
    expect(backoff!.delayMs).toBeLessThanOrEqual(1000);
  });

  it("Retry-After is honoured: the delay is at least the server's", () => {
    const throttled = agent.failed(first, { httpStatus: 429, headers: { 'retry-after': '30' } });
    const [state] = spec.given([]).when(throttled).then({ keyId, status: 'open' }).changed;
    expect(decide(state!, DEFAULT_CONFIG).backoff).toEqual({
      delayMs: 30_000,
      source: 'retry_after',
      notBefore: new Date(Date.parse(throttled.time) + 30_000).toISOString(),
    });
  });

  it('a rate-limit reset header works the same way, and retrying before it is a violation', () => {
    const throttled = agent.failed(first, {
      httpStatus: 429,
      headers: { 'x-ratelimit-reset-requests': '1m30s', 'x-ratelimit-remaining-requests': '0' },
    });
    const [state] = spec.given([]).when(throttled).then({ keyId }).changed;
    expect(decide(state!, DEFAULT_CONFIG).backoff).toMatchObject({ delayMs: 90_000, source: 'rate_limit_reset' });
    spec
      .given([throttled])
      .when(agent.requested(retry1))
      .then({ violations: 1, lastViolation: expect.objectContaining({ kind: 'before_server_delay' }) });
  });

  it('preflight denies a retry inside the backoff window and allows it after', () => {
    const throttled = agent.failed(first, { httpStatus: 429, headers: { 'retry-after': '10' } });
    const at = (ms: number) => new Date(Date.parse(throttled.time) + ms).toISOString();
    spec
      .given([throttled])
      .whenPreflight('acme', retry1, at(9_999))
      .thenDenied({
        reason:
          /^the server asked run \S+ not to retry \S+ on .* before \S+Z \(Retry-After\), after 1 transient failure \[key /,
      });
    spec.given([throttled]).whenPreflight('acme', retry1, at(10_000)).thenAllowed();
  });

  it('a retry must keep the intent: a new goal under an old failure is not a retry, nor a violation', () => {
    const otherGoal = agent.retry(first, { intentId: 'intent-something-else' });
    spec.given([unavailable]).when(agent.requested(otherGoal)).thenNothingChanged();
  });

  it('a new goal that fails the same way lands in the same key and spends its budget', () => {
    const otherGoal = agent.retry(first, { intentId: 'intent-something-else' });
    spec
      .given([unavailable, agent.requested(otherGoal)])
      .when(agent.failed(otherGoal, { httpStatus: 503 }))
      .then({ keyId, violations: 0, failures: 2 });
  });

  it('two retries fail: the budget is spent, forced summary', () => {
    spec
      .given([unavailable, agent.requested(retry1), agent.failed(retry1, { httpStatus: 503 }), agent.requested(retry2)])
      .when(agent.failed(retry2, { errno: 'ETIMEDOUT', message: 'connect timed out' }, { requestSent: false }))
      .then({
        keyId,
        retryCount: 2,
        legitimateAttempts: 2,
        status: 'exhausted',
        decision: { level: 'block', nextAction: 'forced_summary', backoff: null },
      });
  });

  it('a retry that succeeds resolves the key', () => {
    spec
      .given([unavailable, agent.requested(retry1)])
      .when(agent.succeeded(retry1, { rowCount: 10, empty: false }))
      .then({ keyId, status: 'resolved', decision: { intervene: false } });
  });

  it('the same verifier passing resolves it as well', () => {
    spec
      .given([unavailable])
      .when(agent.verified(first, 'same_verifier', 'confirmed'))
      .then({ keyId, status: 'resolved', finding: 'same_verifier_passed' });
  });
});
