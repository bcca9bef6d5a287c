import { describe, expect, it } from 'vitest';
import { csrfTokenMatches, DashboardSessions } from './dashboard-sessions.js';

const MIN = 60_000;

function sessionsAt(start = Date.parse('2026-12-01T12:00:00Z')) {
  let now = start;
  const sessions = new DashboardSessions(() => new Date(now), {
    loginTokenTtlMs: 5 * MIN,
    idleTtlMs: 60 * MIN,
    absoluteTtlMs: 12 * 60 * MIN,
    maxEntries: 3,
  });
  return { sessions, advance: (ms: number) => (now += ms) };
}

describe('dashboard sessions', () => {
  it('redeems a login token once, for the tenant it was minted for', () => {
    const { sessions } = sessionsAt();
    const { token } = sessions.mintLoginToken('acme');
    const opened = sessions.redeemLoginToken(token);
    expect(opened?.session.tenant).toBe('acme');
    expect(sessions.touch(opened!.sessionId)?.tenant).toBe('acme');
    expect(sessions.redeemLoginToken(token)).toBeNull();
  });

  it('refuses a login token after its few minutes, and an unknown one', () => {
    const { sessions, advance } = sessionsAt();
    const { token, expiresAt } = sessions.mintLoginToken('acme');
    advance(5 * MIN);
    expect(expiresAt.toISOString()).toBe('2026-12-01T12:05:00.000Z');
    expect(sessions.redeemLoginToken(token)).toBeNull();
    expect(sessions.redeemLoginToken('not-a-token-anyone-was-given')).toBeNull();
  });

  it('ends a session after an idle hour, and after twelve hours however busy', () => {
    const { sessions, advance } = sessionsAt();
    const idle = sessions.open('acme').sessionId;
    advance(59 * MIN);
    expect(sessions.touch(idle)).not.toBeNull();
    advance(60 * MIN);
    expect(sessions.touch(idle)).toBeNull();

    const busy = sessions.open('acme').sessionId;
    for (let hour = 0; hour < 11; hour += 1) {
      advance(59 * MIN);
      expect(sessions.touch(busy)).not.toBeNull();
    }
    advance(60 * MIN);
    expect(sessions.touch(busy)).toBeNull();
  });

  it('closes a session on sign-out and gives each session its own CSRF token', () => {
    const { sessions } = sessionsAt();
    const a = sessions.open('acme');
    const b = sessions.open('acme');
    expect(a.session.csrfToken).not.toBe(b.session.csrfToken);
    sessions.close(a.sessionId);
    expect(sessions.touch(a.sessionId)).toBeNull();
    expect(sessions.touch(b.sessionId)).not.toBeNull();
  });

  it('holds at most maxEntries sessions, dropping the oldest', () => {
    const { sessions } = sessionsAt();
    const ids = [1, 2, 3, 4].map(() => sessions.open('acme').sessionId);
    expect(sessions.size.sessions).toBe(3);
    expect(sessions.touch(ids[0]!)).toBeNull();
    expect(sessions.touch(ids[3]!)).not.toBeNull();
  });

  it('compares CSRF tokens exactly', () => {
    expect(csrfTokenMatches('abc', 'abc')).toBe(true);
    expect(csrfTokenMatches('abc', 'abd')).toBe(false);
    expect(csrfTokenMatches('abc', 'ab')).toBe(false);
    expect(csrfTokenMatches('abc', undefined)).toBe(false);
  });
});
