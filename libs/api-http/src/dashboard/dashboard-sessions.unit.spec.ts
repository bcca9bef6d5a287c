import { describe, expect, it } from 'vitest';
import { csrfTokenMatches, DashboardSessions, refusedSignIn, type SignIn } from './dashboard-sessions.js';

const MIN = 60_000;

function sessionsAt(start = Date.parse('2026-12-01T12:00:00Z')) {
  let now = start;
  const sessions = new DashboardSessions(() => new Date(now), {
    loginTokenTtlMs: 5 * MIN,
    idleTtlMs: 60 * MIN,
    absoluteTtlMs: 12 * 60 * MIN,
    sessionsPerTenant: 3,
    loginTokensPerTenant: 2,
    signInsPerMinute: 60,
    signInBurst: 100,
  });
  return { sessions, advance: (ms: number) => (now += ms) };
}

/** The outcome of a sign-in the spec expects to be admitted. */
function admitted<T extends object>(outcome: SignIn<T>): T {
  if (refusedSignIn(outcome)) throw new Error(`refused, retry after ${outcome.retryAfterMs} ms`);
  return outcome;
}
const open = (sessions: DashboardSessions, tenant: string) => admitted(sessions.signIn(tenant));
const mint = (sessions: DashboardSessions, tenant: string) => admitted(sessions.mintLoginToken(tenant));

describe('dashboard sessions', () => {
  it('redeems a login token once, for the tenant it was minted for', () => {
    const { sessions } = sessionsAt();
    const { token } = mint(sessions, 'acme');
    const opened = sessions.redeemLoginToken(token);
    expect(opened?.session.tenant).toBe('acme');
    expect(sessions.touch(opened!.sessionId)?.tenant).toBe('acme');
    expect(sessions.redeemLoginToken(token)).toBeNull();
  });

  it('refuses a login token after its few minutes, and an unknown one', () => {
    const { sessions, advance } = sessionsAt();
    const { token, expiresAt } = mint(sessions, 'acme');
    advance(5 * MIN);
    expect(expiresAt.toISOString()).toBe('2026-12-01T12:05:00.000Z');
    expect(sessions.redeemLoginToken(token)).toBeNull();
    expect(sessions.redeemLoginToken('not-a-token-anyone-was-given')).toBeNull();
  });

  it('ends a session after an idle hour, and after twelve hours however busy', () => {
    const { sessions, advance } = sessionsAt();
    const idle = open(sessions, 'acme').sessionId;
    advance(59 * MIN);
    expect(sessions.touch(idle)).not.toBeNull();
    advance(60 * MIN);
    expect(sessions.touch(idle)).toBeNull();

    const busy = open(sessions, 'acme').sessionId;
    for (let hour = 0; hour < 11; hour += 1) {
      advance(59 * MIN);
      expect(sessions.touch(busy)).not.toBeNull();
    }
    advance(60 * MIN);
    expect(sessions.touch(busy)).toBeNull();
  });

  it('closes a session on sign-out and gives each session its own CSRF token', () => {
    const { sessions } = sessionsAt();
    const a = open(sessions, 'acme');
    const b = open(sessions, 'acme');
    expect(a.session.csrfToken).not.toBe(b.session.csrfToken);
    sessions.close(a.sessionId);
    expect(sessions.touch(a.sessionId)).toBeNull();
    expect(sessions.touch(b.sessionId)).not.toBeNull();
  });

  it("holds at most sessionsPerTenant sessions per tenant, dropping the tenant's own oldest", () => {
    const { sessions } = sessionsAt();
    const globex = open(sessions, 'globex').sessionId;
    const ids = [1, 2, 3, 4].map(() => open(sessions, 'acme').sessionId);
    expect(sessions.size.sessions).toBe(4);
    expect(sessions.touch(ids[0]!)).toBeNull();
    expect(sessions.touch(ids[3]!)).not.toBeNull();
    expect(sessions.touch(globex)?.tenant).toBe('globex');
  });

  it("holds at most loginTokensPerTenant unredeemed links per tenant, dropping the tenant's own oldest", () => {
    const { sessions } = sessionsAt();
    const globex = mint(sessions, 'globex').token;
    const acme = [1, 2, 3].map(() => mint(sessions, 'acme').token);
    expect(sessions.redeemLoginToken(acme[0]!)).toBeNull();
    expect(sessions.redeemLoginToken(acme[2]!)?.session.tenant).toBe('acme');
    expect(sessions.redeemLoginToken(globex)?.session.tenant).toBe('globex');
  });

  it('rate-limits sign-ins and minted links per tenant, and says when to retry', () => {
    let now = 0;
    const sessions = new DashboardSessions(() => new Date(now), {
      loginTokenTtlMs: 5 * MIN,
      idleTtlMs: 60 * MIN,
      absoluteTtlMs: 12 * 60 * MIN,
      sessionsPerTenant: 10,
      loginTokensPerTenant: 10,
      signInsPerMinute: 6,
      signInBurst: 2,
    });
    expect(refusedSignIn(sessions.signIn('acme'))).toBe(false);
    expect(refusedSignIn(sessions.mintLoginToken('acme'))).toBe(false);
    expect(sessions.signIn('acme')).toEqual({ refused: true, retryAfterMs: 10_000 });
    expect(sessions.mintLoginToken('acme')).toEqual({ refused: true, retryAfterMs: 10_000 });
    expect(refusedSignIn(sessions.signIn('globex'))).toBe(false);
    now += 10_000;
    expect(refusedSignIn(sessions.signIn('acme'))).toBe(false);
  });

  it('tells a watcher when its session ends: sign-out, eviction, or expiry noticed', () => {
    const { sessions, advance } = sessionsAt();
    const ended: string[] = [];
    const a = open(sessions, 'acme').sessionId;
    sessions.onEnd(a, () => ended.push('signed out'));
    sessions.close(a);
    const b = open(sessions, 'acme').sessionId;
    sessions.onEnd(b, () => ended.push('evicted'));
    for (let i = 0; i < 3; i++) open(sessions, 'acme');
    const c = open(sessions, 'globex').sessionId;
    sessions.onEnd(c, () => ended.push('expired'));
    advance(61 * MIN);
    expect(sessions.isLive(c)).toBe(false);
    expect(ended).toEqual(['signed out', 'evicted', 'expired']);
    sessions.onEnd(c, () => ended.push('already gone'));
    expect(ended.at(-1)).toBe('already gone');
  });

  it('compares CSRF tokens exactly', () => {
    expect(csrfTokenMatches('abc', 'abc')).toBe(true);
    expect(csrfTokenMatches('abc', 'abd')).toBe(false);
    expect(csrfTokenMatches('abc', 'ab')).toBe(false);
    expect(csrfTokenMatches('abc', undefined)).toBe(false);
  });
});
