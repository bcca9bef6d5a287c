import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '@tokencircuit/governance';
import { loadEmbeddedConfig } from '../../apps/fleet/src/embedded/embedded-config.js';
import { startEmbedded, type EmbeddedRuntime } from '../../apps/fleet/src/fleet-modes.js';
import { outcome, permissionDenied, requested, toolCall } from '@tokencircuit/contracts/testing';
import { waitFor } from '@tokencircuit/testing';
import { runCli } from '../cli/support/run-cli.js';
import { buildDashboard, hasChromium, launchChromium, NO_CHROMIUM_MESSAGE, type Browser } from './support/chromium.js';

if (!hasChromium) console.warn(NO_CHROMIUM_MESSAGE);

/**
 * The fleet dashboard in headless Chromium against `npm start`'s embedded runtime, after the RFC demo:
 * sign-in through the printed link, the demo's interventions with their next actions, a new one arriving
 * live, its drill-down, and an operator acknowledgement that lands in the state and the audit trail.
 */
describe.skipIf(!hasChromium)('fleet dashboard in a browser', () => {
  let dataDir: string;
  let runtime: EmbeddedRuntime;
  let apiKey: string;
  let browser: Browser;
  let page: Page;
  const cli = (...args: string[]) =>
    runCli([...args, '--url', runtime.url, '--data-dir', dataDir], { timeoutMs: 120_000 });
  const asKey = { authorization: '' };

  /** Signs `page` in through a one-time link minted with the API key (each test starts from its own session). */
  async function signIn(): Promise<void> {
    const minted = await fetch(`${runtime.url}/v1/dashboard/login-tokens`, {
      method: 'POST',
      headers: { ...asKey, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(minted.status).toBe(201);
    await page.goto(`${runtime.url}${((await minted.json()) as { path: string }).path}`);
    await page.getByRole('heading', { name: 'Fleet now' }).waitFor();
  }

  /** A permission denial of a principal seen nowhere else, sent through the API: one new BLOCK intervention. */
  async function postDenial(principal: string): Promise<{ run: string }> {
    const run = `run-${principal}`;
    const call = toolCall({ principal, run, agent: 'live-agent' });
    const now = Date.now();
    const response = await fetch(`${runtime.url}/v1/events`, {
      method: 'POST',
      headers: { ...asKey, 'content-type': 'application/json' },
      body: JSON.stringify({
        events: [
          requested('demo', call, new Date(now - 1000).toISOString()),
          permissionDenied('demo', call, new Date(now).toISOString()),
        ],
      }),
    });
    expect(response.status).toBe(202);
    return { run };
  }

  /**
   * A signed-in page on the drill-down of a fresh denial's intervention, reached from the latest list as a
   * person would; returns the intervention, its key and run.
   */
  async function drillIntoFreshDenial(principal: string) {
    await signIn();
    const { run } = await postDenial(principal);
    const item = page.locator('ol.latest li', { hasText: principal });
    await item.waitFor({ timeout: 15_000 });
    const interventionId = (await item.getAttribute('data-intervention-id'))!;
    await item.locator('a').click();
    await page.locator('#drill-title').waitFor();
    const keyId = (await page.locator('dl.fields dt:text-is("key_id") + dd').innerText()).trim();
    expect(keyId).not.toBe('');
    return { interventionId, keyId, run };
  }

  beforeAll(async () => {
    buildDashboard();
    dataDir = mkdtempSync(join(tmpdir(), 'tc-dashboard-'));
    const config = loadEmbeddedConfig({ TOKENCIRCUIT_DATA_DIR: dataDir, API_HTTP_PORT: '0', LOG_LEVEL: 'silent' });
    runtime = await startEmbedded(config, DEFAULT_CONFIG, pino({ level: 'silent' }));
    apiKey = readFileSync(join(dataDir, 'api-keys'), 'utf8').trim().split(':')[1]!;
    asKey.authorization = `Bearer ${apiKey}`;
    const demo = await cli('demo');
    expect(demo.code, demo.stderr).toBe(0);
    browser = await launchChromium();
    page = await browser.context.newPage();
  });

  afterAll(async () => {
    await browser?.close();
    await runtime?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('signs in through the one-time link `tokencircuit dashboard --print-url` prints; the link works once', async () => {
    const printed = await cli('dashboard', '--print-url');
    expect(printed.code, printed.stderr).toBe(0);
    expect(printed.stdout).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/dashboard\/login\?token=[A-Za-z0-9_-]{40,}\n$/);
    const link = printed.stdout.trim();

    await page.goto(link);
    await page.getByRole('heading', { name: 'Fleet now' }).waitFor();
    // The token is gone from the address bar, and the session is a cookie no script can read.
    expect(page.url()).toBe(`${runtime.url}/dashboard/`);
    const [cookie] = await browser.context.cookies(runtime.url);
    expect(cookie).toMatchObject({ name: 'tc_session', httpOnly: true, sameSite: 'Strict' });
    expect(await page.evaluate(() => document.cookie)).toBe('');
    expect(await page.locator('.tenant').textContent()).toBe('Tenant demo');

    const again = await fetch(link, { redirect: 'manual' });
    expect(again.status).toBe(303);
    expect(again.headers.get('location')).toBe('/dashboard/?signin=expired');
    expect(again.headers.get('set-cookie')).toBeNull();
  });

  it("lists the RFC demo's blocked keys and interventions with their next allowed actions", async () => {
    await signIn();
    const held = page.locator('table.held tbody tr');
    await held.first().waitFor();
    const rows = await held.allInnerTexts();
    const row = (text: string) => rows.find((r) => r.includes(text));
    // RFC 1: the principal is denied on finance.salaries, fleet-wide, budget 0.
    expect(row('Stop; request auth/scope change')).toMatch(
      /BLOCK[\s\S]*permission[\s\S]*svc-reporting[\s\S]*sql_query[\s\S]*finance\.salaries/,
    );
    // RFC 2: the one repair attempt is spent: forced summary.
    expect(row('Stop retrying; summarise')).toMatch(/validation/);
    for (const action of ['Acknowledge', 'Resolve']) {
      expect(await page.locator('table.held tbody tr').first().getByRole('button', { name: action }).count()).toBe(1);
    }
    const latest = (await page.locator('ol.latest').innerText()).replace(/\s+/g, ' ');
    expect(latest).toContain('Retry with backoff, same intent'); // RFC 3
    expect(latest).toContain('Verify the empty result'); // RFC 4
    // RFC 5: the effect was unknown: reconcile before any retry (then the verifier confirmed it: proceed).
    expect(latest).toMatch(
      /BLOCK ambiguous effect on create_invoice → Reconcile \(read-after-write\) before any retry/,
    );
    expect(latest).toMatch(/ADVISE ambiguous effect on create_invoice → Proceed/);
    expect(await page.locator('.chart canvas').count()).toBeGreaterThan(0);
    expect(await page.locator('dl.summary').innerText()).toMatch(/Keys held now\s+\d+/);
  });

  it('lists a fleet-wide loop: three runs repeating the same search with the same result', async () => {
    const digest = `sha256:${'ab'.repeat(32)}`;
    const events = [];
    const now = Date.now();
    for (const run of ['loop-run-1', 'loop-run-2', 'loop-run-3']) {
      for (let i = 0; i < 3; i += 1) {
        const call = toolCall({
          run,
          agent: 'loop-agent',
          tool: 'web_search',
          resourceClass: null,
          resourceId: null,
          authScope: null,
          sqlStatement: null,
          arguments: { q: 'q3 revenue' },
        });
        const at = new Date(now - 60_000 + events.length * 100).toISOString();
        events.push(requested('demo', call, at));
        events.push(
          outcome('demo', call, { status: 'succeeded', result: { empty: false }, resultDigest: digest }, { time: at }),
        );
      }
    }
    const response = await fetch(`${runtime.url}/v1/events`, {
      method: 'POST',
      headers: { ...asKey, 'content-type': 'application/json' },
      body: JSON.stringify({ events }),
    });
    expect(response.status).toBe(202);
    await waitFor(
      async () => {
        const fleet = await fetch(`${runtime.url}/v1/dashboard/fleet`, { headers: asKey });
        const body = (await fleet.json()) as { loops: { tool: string }[] };
        return body.loops.some((l) => l.tool === 'web_search');
      },
      { name: "the three runs' repeated searches to be folded into a fleet loop" },
    );
    await signIn();
    const loop = page.locator('ol.loops li', { hasText: 'web_search' });
    await loop.waitFor({ timeout: 15_000 });
    expect((await loop.innerText()).replace(/\s+/g, ' ')).toMatch(
      /3 runs \S+ ADVISE web_search arguments \S+ · last seen \S/,
    );
  });

  it('shows an intervention produced now without a reload', async () => {
    await signIn();
    await page.locator('.live-live').waitFor();
    await page.evaluate(() => ((window as unknown as { notReloaded: boolean }).notReloaded = true));
    await postDenial('svc-live-check');

    const arrived = page.locator('ol.latest li.arrived', { hasText: 'svc-live-check' });
    await arrived.waitFor({ timeout: 15_000 });
    expect(await arrived.innerText()).toMatch(
      /NEW[\s\S]*BLOCK[\s\S]*permission[\s\S]*Stop; request auth\/scope change/,
    );
    expect(await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);
    await page.locator('table.held tbody tr', { hasText: 'svc-live-check' }).waitFor();
  });

  it("drills down into an intervention's artifact and the events that caused it", async () => {
    const { interventionId } = await drillIntoFreshDenial('svc-drill-check');
    expect(page.url()).toBe(`${runtime.url}/dashboard/#/interventions/${encodeURIComponent(interventionId)}`);
    const text = (await page.locator('article.drill').innerText()).replace(/\s+/g, ' ');
    expect(text).toMatch(/BLOCK permission on sql\.query/);
    expect(text).toContain('Next allowed action: Stop; request auth/scope change');
    for (const field of [
      'tool_name sql.query',
      'resource_class sql_namespace',
      'auth_scope finance:read',
      'error_class permission',
      'side_effect_boundary no',
      'scope fleet',
      'principal svc-drill-check',
      'resource_id finance.salaries',
      'budget +0',
      'retry_count 0',
      'budget_exhausted yes',
    ]) {
      expect(text).toContain(field);
    }
    expect(text).toMatch(/policy_version sha256:[0-9a-f]{64}/);
    expect(text).toContain('permission denied for table salaries');
    const causes = await page.locator('section[aria-labelledby="cause-title"] tbody tr').allInnerTexts();
    expect(causes.some((row) => row.includes('tool_call.outcome'))).toBe(true);
  });

  it('records an acknowledgement from the page as an operator resolution', async () => {
    const { keyId, run } = await drillIntoFreshDenial('svc-ack-check');
    await page.getByRole('button', { name: 'Acknowledge key' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Your name').fill('oncall-ana');
    await dialog.getByLabel('Reason').fill('looking into the finance grant');
    await dialog.getByRole('button', { name: 'Acknowledge' }).click();
    await page.locator('.notice', { hasText: 'Acknowledgement of sql.query (permission) recorded' }).waitFor();

    const state = (await (
      await fetch(`${runtime.url}/v1/state/${encodeURIComponent(keyId)}`, { headers: asKey })
    ).json()) as { state: { acknowledgedSituation: string | null; operator: { by: string; reason: string } | null } };
    expect(state.state.acknowledgedSituation).not.toBeNull();
    expect(state.state.operator).toMatchObject({ by: 'oncall-ana', reason: 'looking into the finance grant' });

    // The audit trail of the run holds the operator's event next to the agent's.
    await page.goto(`${runtime.url}/dashboard/#/runs/${run}`);
    await page.getByRole('heading', { name: `Run ${run}` }).waitFor();
    const timeline = (await page.locator('ol.timeline').innerText()).replace(/\s+/g, ' ');
    expect(timeline).toMatch(/Tool call sql\.query attempt 1/);
    expect(timeline).toMatch(/Outcome failed/);
    expect(timeline).toMatch(/Decision ■ BLOCK permission on sql\.query/);
  });

  it('refuses a signed-in state change without the CSRF token or from another origin', async () => {
    const { keyId } = await drillIntoFreshDenial('svc-csrf-check');
    const [cookie] = await browser.context.cookies(runtime.url);
    const headers = { cookie: `tc_session=${cookie!.value}`, 'content-type': 'application/json' };
    const body = JSON.stringify({ keyId, resolution: 'acknowledged', by: 'mallory', reason: 'csrf' });
    const bare = await fetch(`${runtime.url}/v1/resolutions`, { method: 'POST', headers, body });
    expect(bare.status).toBe(403);
    expect(await bare.json()).toMatchObject({ error: 'csrf_failed' });
    const session = (await (await fetch(`${runtime.url}/v1/dashboard/session`, { headers })).json()) as {
      csrfToken: string;
    };
    const foreign = await fetch(`${runtime.url}/v1/resolutions`, {
      method: 'POST',
      headers: { ...headers, 'x-csrf-token': session.csrfToken, origin: 'https://evil.example' },
      body,
    });
    expect(foreign.status).toBe(403);
    // Reads with the cookie work; a login link cannot be minted from a session.
    const mint = await fetch(`${runtime.url}/v1/dashboard/login-tokens`, {
      method: 'POST',
      headers: { ...headers, 'x-csrf-token': session.csrfToken },
      body: '{}',
    });
    expect(mint.status).toBe(403);
  });

  it('shows a lifecycle change made elsewhere (a resolution through the API) without a reload', async () => {
    await signIn();
    await postDenial('svc-reset-check');
    const row = page.locator('table.held tbody tr', { hasText: 'svc-reset-check' });
    await row.waitFor();
    await page.locator('.live-live').waitFor();
    const keyId = (await row.getAttribute('data-key-id'))!;
    await page.evaluate(() => ((window as unknown as { notReloaded: boolean }).notReloaded = true));
    const response = await fetch(`${runtime.url}/v1/resolutions`, {
      method: 'POST',
      headers: { ...asKey, 'content-type': 'application/json' },
      body: JSON.stringify({ keyId, resolution: 'reset', by: 'oncall-bo', reason: 'grant fixed upstream' }),
    });
    expect(response.status).toBe(202);
    await page.locator(`table.held tbody tr[data-key-id="${keyId}"]`).waitFor({ state: 'detached', timeout: 15_000 });
    expect(await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);
  });

  it('exports the audit trail and verifies the chain from the page', async () => {
    await signIn();
    await postDenial('svc-export-check');
    await page.locator('ol.latest li', { hasText: 'svc-export-check' }).waitFor({ timeout: 15_000 });
    await page.goto(`${runtime.url}/dashboard/#/audit`);
    await page.getByRole('button', { name: 'Verify chain' }).click();
    await page.locator('.verdict.ok').waitFor();
    expect(await page.locator('.verdict.ok').innerText()).toMatch(
      /INTACT: \d+ intervention\(s\) of tenant demo verified/,
    );
    const csvHref = await page.getByRole('link', { name: 'Download CSV' }).getAttribute('href');
    const csv = await page.evaluate(async (href) => (await fetch(href!)).text(), csvHref);
    expect(csv.split('\n')[0]).toContain('seq');
    expect(csv).toContain('svc-export-check');
  });

  it('signs in with an API key in the form, works on a phone-sized screen, and signs out', async () => {
    await browser.context.clearCookies();
    const small = await browser.context.newPage();
    await small.setViewportSize({ width: 390, height: 844 });
    await small.goto(`${runtime.url}/dashboard/`);
    await small.getByLabel('API key').fill('not-a-key-of-anyone');
    await small.getByRole('button', { name: 'Sign in' }).click();
    await small.getByText('That API key is not known.').waitFor();
    await small.getByLabel('API key').fill(apiKey);
    await small.getByRole('button', { name: 'Sign in' }).click();
    await small.getByRole('heading', { name: 'Fleet now' }).waitFor();
    await small.locator('table.held tbody tr').first().waitFor();
    expect(small.url()).not.toContain(apiKey);
    // Nothing wider than the screen but the tables, which scroll inside their own box.
    expect(await small.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    // Keyboard: the first Acknowledge button opens its dialog with Enter; Escape closes it.
    await small.locator('table.held tbody tr').first().getByRole('button', { name: 'Acknowledge' }).focus();
    await small.keyboard.press('Enter');
    await small.getByRole('dialog').waitFor();
    expect(await small.evaluate(() => document.activeElement?.closest('dialog') !== null)).toBe(true);
    await small.keyboard.press('Escape');
    await small.getByRole('dialog').waitFor({ state: 'hidden' });
    const [cookie] = await browser.context.cookies(runtime.url);
    await small.getByRole('button', { name: 'Sign out' }).click();
    await small.getByLabel('API key').waitFor();
    // The session ended on the server, not only in this browser.
    const old = await fetch(`${runtime.url}/v1/dashboard/session`, {
      headers: { cookie: `tc_session=${cookie!.value}` },
    });
    expect(old.status).toBe(401);
    await small.close();
  });
});
