import { describe, expect, it } from 'vitest';
import { durationMs, resetMs, retryAfterMs, serverDelayOf } from './server-delay.js';

const AT = Date.parse('2025-03-01T09:00:00.000Z');

describe('Retry-After (RFC 9110 §10.2.3)', () => {
  it('reads delay-seconds', () => {
    expect(retryAfterMs('120', AT)).toBe(120_000);
    expect(retryAfterMs(' 0 ', AT)).toBe(0);
  });

  it('reads an HTTP-date as the time until then', () => {
    expect(retryAfterMs('Sat, 01 Mar 2025 09:00:45 GMT', AT)).toBe(45_000);
  });

  it('a date already past means no wait', () => {
    expect(retryAfterMs('Sat, 01 Mar 2025 08:00:00 GMT', AT)).toBe(0);
  });

  it('ignores what is neither (no guessing from "1.5" or garbage)', () => {
    expect(retryAfterMs('1.5', AT)).toBeNull();
    expect(retryAfterMs('soon', AT)).toBeNull();
    expect(retryAfterMs('-3', AT)).toBeNull();
  });
});

describe('rate-limit reset values, in the three forms providers use', () => {
  it('durations such as "1m30s", "6m0s", "20ms", "1.5s"', () => {
    expect(durationMs('1m30s')).toBe(90_000);
    expect(durationMs('6m0s')).toBe(360_000);
    expect(durationMs('20ms')).toBe(20);
    expect(durationMs('1.5s')).toBe(1500);
    expect(durationMs('1h')).toBe(3_600_000);
    expect(durationMs('')).toBeNull();
    expect(durationMs('5 minutes')).toBeNull();
  });

  it('epoch seconds (GitHub style) become the time until then', () => {
    expect(resetMs(String(AT / 1000 + 42), AT)).toBe(42_000);
  });

  it('epoch milliseconds are recognised too', () => {
    expect(resetMs(String(AT + 1500), AT)).toBe(1500);
  });

  it('small numbers are delta seconds (IETF RateLimit-Reset)', () => {
    expect(resetMs('30', AT)).toBe(30_000);
    expect(resetMs('0.25', AT)).toBe(250);
  });
});

describe('serverDelayOf', () => {
  it('is null when the server imposed nothing', () => {
    expect(serverDelayOf({ 'content-type': 'application/json' }, AT)).toBeNull();
  });

  it('honours Retry-After and says so', () => {
    expect(serverDelayOf({ 'retry-after': '7' }, AT)).toEqual({
      delayMs: 7000,
      source: 'retry_after',
      notBefore: '2025-03-01T09:00:07.000Z',
    });
  });

  it('reads header names in any case: Retry-After and retry-after are one field (RFC 9110 §5.1)', () => {
    const lower = serverDelayOf({ 'retry-after': '7' }, AT);
    expect(serverDelayOf({ 'Retry-After': '7' }, AT)).toEqual(lower);
    expect(serverDelayOf({ 'RETRY-AFTER': '7' }, AT)).toEqual(lower);
    expect(
      serverDelayOf({ 'X-RateLimit-Reset-Tokens': '6m0s', 'X-RateLimit-Remaining-Tokens': '0' }, AT),
    ).toMatchObject({ delayMs: 360_000, source: 'rate_limit_reset' });
  });

  it('takes the longest of several limits: the next attempt must satisfy all of them', () => {
    const delay = serverDelayOf(
      {
        'retry-after': '2',
        'x-ratelimit-reset-requests': '1s',
        'x-ratelimit-reset-tokens': '6m0s',
        'x-ratelimit-remaining-requests': '0',
        'x-ratelimit-remaining-tokens': '0',
      },
      AT,
    );
    expect(delay).toMatchObject({ delayMs: 360_000, source: 'rate_limit_reset' });
  });

  it('ignores a reset time while the window still has requests left', () => {
    expect(
      serverDelayOf({ 'x-ratelimit-reset': String(AT / 1000 + 600), 'x-ratelimit-remaining': '57' }, AT),
    ).toBeNull();
    expect(
      serverDelayOf({ 'x-ratelimit-reset': String(AT / 1000 + 600), 'x-ratelimit-remaining': '0' }, AT),
    ).toMatchObject({ delayMs: 600_000 });
  });

  it('reads the IETF structured RateLimit field', () => {
    expect(serverDelayOf({ ratelimit: '"default";r=0;t=30' }, AT)).toMatchObject({
      delayMs: 30_000,
      source: 'rate_limit_reset',
    });
    expect(serverDelayOf({ ratelimit: '"default";r=12;t=30' }, AT)).toBeNull();
  });

  it.each([
    ['retry-after', '9'.repeat(400)],
    ['retry-after', '99999999999999'],
    ['retry-after', 'Sat, 13 Sep 275760 00:00:00 GMT'],
    ['x-ratelimit-reset', '9'.repeat(30)],
    ['x-ratelimit-reset', `${'9'.repeat(300)}h`],
    ['ratelimit', `"default";r=0;t=${'9'.repeat(20)}`],
  ])('caps a wait past year 9999 (%s: %s) at the last storable instant', (name, value) => {
    const delay = serverDelayOf({ [name]: value, 'x-ratelimit-remaining': '0' }, AT)!;
    expect(delay.notBefore).toBe('9999-12-31T23:59:59.999Z');
    expect(delay.delayMs).toBe(Date.parse('9999-12-31T23:59:59.999Z') - AT);
  });

  it('keeps a long wait that stays inside year 9999 as the server said', () => {
    expect(serverDelayOf({ 'retry-after': 'Fri, 31 Dec 9999 23:00:00 GMT' }, AT)!.notBefore).toBe(
      '9999-12-31T23:00:00.000Z',
    );
  });
});
