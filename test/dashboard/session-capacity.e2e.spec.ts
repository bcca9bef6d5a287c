import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiHarness, KEYS } from '../api/support/api-harness.js';

/**
 * Dashboard sessions and login links are held per tenant (issue 28): one tenant's flood of sign-ins
 * evicts only its own oldest sessions, minting is rate-limited per tenant, a signed-out session's live
 * stream ends, and the Origin check compares the scheme too. HTTP level, over the real API and Postgres.
 */
describe('dashboard session capacity per tenant (real API, real Postgres)', () => {
  let api: ApiHarness;
  beforeAll(async () => {
    api = await ApiHarness.start();
  });
  afterAll(async () => api?.close());

  const origin = () => api.baseUrl;
  const signIn = (tenant: keyof typeof KEYS) =>
    api.request('/dashboard/session', { body: { apiKey: KEYS[tenant] }, headers: { origin: origin() } });
  const cookieOf = (response: Response): string => response.headers.get('set-cookie')!.split(';')[0]!;
  const sessionOf = async (cookie: string) => api.request('/v1/dashboard/session', { headers: { cookie } });

  it("a tenant flooding sign-ins and login links is refused (429) before it can sign out another tenant's users", async () => {
    const victim = await signIn('acme');
    expect(victim.status).toBe(200);
    const acmeCookie = cookieOf(victim);

    // 10,001 is one more than the whole shared map held before sessions were kept per tenant.
    let refusedSignIn: Response | null = null;
    for (let i = 0; i < 10_001 && refusedSignIn === null; i++) {
      const response = await signIn('globex');
      if (response.status === 429) refusedSignIn = response;
      else expect(response.status).toBe(200);
    }
    expect(refusedSignIn, 'sign-ins are rate-limited per tenant').not.toBeNull();
    expect(Number(refusedSignIn!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(await refusedSignIn!.json()).toMatchObject({ error: 'rate_limited', quota: 'dashboard_sign_in' });

    let refusedLink: Response | null = null;
    for (let i = 0; i < 10_001 && refusedLink === null; i++) {
      const response = await api.as('globex', '/v1/dashboard/login-tokens', { body: {} });
      if (response.status === 429) refusedLink = response;
      else expect(response.status).toBe(201);
    }
    expect(refusedLink, 'login links are rate-limited per tenant').not.toBeNull();
    expect(await refusedLink!.json()).toMatchObject({ error: 'rate_limited', quota: 'dashboard_sign_in' });

    // Acme's user is still signed in, and acme can still sign in: globex's refusals are globex's.
    const still = await sessionOf(acmeCookie);
    expect(still.status).toBe(200);
    expect(await still.json()).toMatchObject({ tenant: 'acme', via: 'session' });
    expect((await signIn('acme')).status).toBe(200);
  });

  it('refuses a sign-in whose Origin has the right host but another scheme', async () => {
    const https = origin().replace(/^http:/, 'https:');
    const response = await api.request('/dashboard/session', {
      body: { apiKey: KEYS.initech },
      headers: { origin: https },
    });
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ error: 'csrf_failed' });
  });

  it('ends the live stream of a session when it signs out', async () => {
    const signedIn = await signIn('initech');
    const cookie = cookieOf(signedIn);
    const { csrfToken } = (await signedIn.json()) as { csrfToken: string };
    const stream = await api.request('/v1/dashboard/live', { headers: { cookie } });
    expect(stream.status).toBe(200);
    const reader = stream.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(first).toContain('retry:');

    const logout = await api.request('/dashboard/logout', {
      method: 'POST',
      headers: { cookie, origin: origin(), 'x-csrf-token': csrfToken },
    });
    expect(logout.status).toBe(204);
    // The server ends the response: reading drains what was written and then reports done.
    const text: string[] = [];
    for (;;) {
      const chunk = await reader.read();
      if (chunk.done) break;
      text.push(new TextDecoder().decode(chunk.value));
    }
    expect(text.join('')).toContain('event: signed_out');
  });
});

describe('dashboard session caps per tenant (real API, small caps)', () => {
  let api: ApiHarness;
  beforeAll(async () => {
    api = await ApiHarness.start({
      quotas: {
        API_DASHBOARD_SESSIONS_PER_TENANT: 3,
        API_DASHBOARD_LOGIN_LINKS_PER_TENANT: 2,
        API_DASHBOARD_SIGN_INS_PER_MINUTE: 1_000,
        API_DASHBOARD_SIGN_IN_BURST: 1_000,
      },
    });
  });
  afterAll(async () => api?.close());

  const signIn = (tenant: keyof typeof KEYS) =>
    api.request('/dashboard/session', { body: { apiKey: KEYS[tenant] }, headers: { origin: api.baseUrl } });
  const cookieOf = (response: Response): string => response.headers.get('set-cookie')!.split(';')[0]!;
  const status = async (cookie: string) => (await api.request('/v1/dashboard/session', { headers: { cookie } })).status;

  it("a tenant's sessions beyond its own cap evict its own oldest, never another tenant's", async () => {
    const acme = cookieOf(await signIn('acme'));
    const globex: string[] = [];
    for (let i = 0; i < 4; i++) globex.push(cookieOf(await signIn('globex')));
    expect(await status(acme)).toBe(200);
    expect(await status(globex[0]!)).toBe(401);
    for (const cookie of globex.slice(1)) expect(await status(cookie)).toBe(200);
  });

  it("a tenant's login links beyond its own cap evict its own oldest, never another tenant's", async () => {
    const mint = async (tenant: keyof typeof KEYS) => {
      const response = await api.as(tenant, '/v1/dashboard/login-tokens', { body: {} });
      expect(response.status).toBe(201);
      return ((await response.json()) as { path: string }).path;
    };
    const redeem = async (path: string) =>
      (await fetch(`${api.baseUrl}${path}`, { redirect: 'manual' })).headers.get('location');
    const acme = await mint('acme');
    const globex = [await mint('globex'), await mint('globex'), await mint('globex')];
    expect(await redeem(acme)).toBe('/dashboard/');
    expect(await redeem(globex[0]!)).toBe('/dashboard/?signin=expired');
    expect(await redeem(globex[2]!)).toBe('/dashboard/');
  });
});
