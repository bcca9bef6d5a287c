import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG, type FailureState } from '@tokencircuit/governance';
import { ErrorSchema, FailureStatePageSchema } from '@tokencircuit/api-http';
import { permissionDenied, requested, succeeded, toolCall, unavailable } from '@tokencircuit/contracts/testing';
import { jsonLines, runCli } from '../cli/support/run-cli.js';
import { ApiHarness, KEYS, type Tenant } from './support/api-harness.js';
import { seedFromEvents } from './support/seed.js';

const BLOCKING = new Set(['blocked', 'exhausted', 'awaiting_verification']);

/**
 * A fleet with every kind of key: fleet-scoped permission blocks for three principals, run-scoped
 * transient failures (six of them changed at the same instant, so the key id must break ties), one
 * exhausted by retries and one resolved by a success.
 */
function fleetEvents(tenant: string) {
  const events = [];
  for (const [i, principal] of ['svc-reporting', 'svc-etl', 'svc-ml'].entries()) {
    const call = toolCall({ agent: `agent-${i}`, run: `run-${tenant}-${i}`, principal });
    events.push(
      requested(tenant, call, `2026-01-05T09:0${i}:00.000Z`),
      permissionDenied(tenant, call, `2026-01-05T09:0${i}:01.000Z`),
    );
  }
  const http = (run: string, attempt = 1) =>
    toolCall({
      agent: 'crawler',
      run,
      tool: 'http.get',
      resourceClass: 'api_endpoint',
      resourceId: null,
      authScope: null,
      principal: null,
      sqlStatement: null,
      httpMethod: 'GET',
      attempt,
      callId: `${run}-call-${attempt}`,
    });
  for (let i = 0; i < 6; i += 1)
    events.push(unavailable(tenant, http(`crawl-${tenant}-${i}`), '2026-01-05T10:00:00.000Z'));
  // Three more attempts than the +2 transient budget allows: exhausted.
  for (const attempt of [2, 3, 4]) {
    events.push(unavailable(tenant, http(`crawl-${tenant}-0`, attempt), `2026-01-05T10:0${attempt}:00.000Z`));
  }
  events.push(succeeded(tenant, http(`crawl-${tenant}-1`, 2), '2026-01-05T10:05:00.000Z'));
  return events;
}

describe('GET /v1/state: list failure states under row-level security (real Postgres)', () => {
  let api: ApiHarness;
  const states = {} as Record<Tenant, FailureState[]>;

  beforeAll(async () => {
    api = await ApiHarness.start();
    for (const tenant of ['acme', 'globex'] as const) {
      states[tenant] = (await seedFromEvents(api.database.pool, fleetEvents(tenant), DEFAULT_CONFIG)).states;
    }
    const statuses = new Set(states.acme.map((s) => s.status));
    expect(statuses).toEqual(new Set(['blocked', 'open', 'exhausted', 'resolved']));
  });
  afterAll(async () => {
    await api?.close();
  });

  /** Every page of a listing, following nextCursor. */
  async function listAll(tenant: Tenant, query: string) {
    const items: { keyId: string; updatedAt: string; status: string }[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const suffix: string = cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`;
      const response = await api.as(tenant, `/v1/state?${query}${suffix}`);
      expect(response.status).toBe(200);
      const page = FailureStatePageSchema.parse(await response.json());
      items.push(...page.items);
      cursor = page.nextCursor;
      pages += 1;
    } while (cursor !== null && pages < 100);
    return { items, pages };
  }

  const newestFirst = (list: readonly FailureState[]) =>
    [...list]
      .sort((a, b) => b.updatedAt.localeCompare(a.updatedAt) || (b.keyId < a.keyId ? -1 : b.keyId > a.keyId ? 1 : 0))
      .map((s) => s.keyId);

  it('lists only the key’s tenant, most recently changed first, ties broken by key id', async () => {
    for (const tenant of ['acme', 'globex'] as const) {
      const { items } = await listAll(tenant, 'limit=500');
      expect(items.map((i) => i.keyId)).toEqual(newestFirst(states[tenant]));
    }
  });

  it('pages with a cursor without gaps or repeats, even across keys changed at the same instant', async () => {
    const { items, pages } = await listAll('acme', 'limit=2');
    expect(pages).toBe(Math.ceil(states.acme.length / 2));
    expect(items.map((i) => i.keyId)).toEqual(newestFirst(states.acme));
  });

  it('blocked=true lists what refuses the next attempt now; blocked=false the rest', async () => {
    const blocked = await listAll('acme', 'blocked=true');
    expect(blocked.items.map((i) => i.keyId)).toEqual(newestFirst(states.acme.filter((s) => BLOCKING.has(s.status))));
    expect(new Set(blocked.items.map((i) => i.status))).toEqual(new Set(['blocked', 'exhausted']));
    const rest = await listAll('acme', 'blocked=false');
    expect(rest.items.map((i) => i.keyId)).toEqual(newestFirst(states.acme.filter((s) => !BLOCKING.has(s.status))));
  });

  it('filters by principal, tool, class, scope, run and status, and combines them', async () => {
    const cases: [string, (s: FailureState) => boolean][] = [
      ['principal=svc-etl', (s) => s.key.principal === 'svc-etl'],
      ['tool=http.get', (s) => s.key.equivalenceKey.tool_name === 'http.get'],
      ['class=permission', (s) => s.failureClass === 'permission'],
      ['scope=fleet', (s) => s.key.scope === 'fleet'],
      ['scope=run&run=crawl-acme-0', (s) => s.key.scope === 'run' && s.key.run === 'crawl-acme-0'],
      ['status=resolved', (s) => s.status === 'resolved'],
      ['class=transient&blocked=false&limit=1', (s) => s.failureClass === 'transient' && !BLOCKING.has(s.status)],
    ];
    for (const [query, wanted] of cases) {
      const expected = newestFirst(states.acme.filter(wanted));
      expect(expected.length, query).toBeGreaterThan(0);
      expect(
        (await listAll('acme', query)).items.map((i) => i.keyId),
        query,
      ).toEqual(expected);
    }
  });

  it('shows where each key stands: coordinates, class, budget, retries, episode start and last receipt', async () => {
    const response = await api.as('acme', '/v1/state?scope=fleet&principal=svc-reporting');
    const [item] = FailureStatePageSchema.parse(await response.json()).items;
    const state = states.acme.find((s) => s.key.scope === 'fleet' && s.key.principal === 'svc-reporting')!;
    expect(item).toEqual({
      keyId: state.keyId,
      tenant: 'acme',
      scope: 'fleet',
      status: 'blocked',
      failureClass: 'permission',
      toolName: 'sql.query',
      principal: 'svc-reporting',
      run: null,
      resourceClass: 'sql_namespace',
      resourceId: 'finance.salaries',
      authScope: 'finance:read',
      budget: 0,
      retryCount: 0,
      verifierStatus: state.verifierStatus,
      episode: 1,
      openedAt: state.openedAt,
      violations: 0,
      lastReceipt: state.lastReceipts.at(-1),
      version: state.version,
      updatedAt: state.updatedAt,
    });
  });

  it('refuses unknown parameters, bad values and forged cursors with a 400 naming the parameter', async () => {
    for (const [query, field] of [
      ['tenant=globex', 'tenant'],
      ['blocked=yes', 'blocked'],
      ['class=bogus', 'class'],
      ['limit=0', 'limit'],
      ['cursor=not-a-cursor', 'cursor'],
      [`cursor=${Buffer.from('v1\nabc\nk').toString('base64url')}`, 'cursor'],
    ] as const) {
      const response = await api.as('acme', `/v1/state?${query}`);
      expect(response.status, query).toBe(400);
      expect(ErrorSchema.parse(await response.json()), query).toMatchObject({ field });
    }
  });

  it('needs an API key', async () => {
    expect((await api.request('/v1/state')).status).toBe(401);
  });

  it('npx tokencircuit state --blocked lists what stops agents now, one line each, or JSON lines', async () => {
    const api_ = ['--url', api.baseUrl, '--api-key', KEYS.acme];
    const blocked = states.acme.filter((s) => BLOCKING.has(s.status));
    const json = await runCli(['state', '--blocked', '--json', ...api_]);
    expect(json.code, json.stderr).toBe(0);
    expect(jsonLines<{ keyId: string }>(json.stdout).map((r) => r.keyId)).toEqual(newestFirst(blocked));
    expect(json.stderr).toContain(`${blocked.length} failure state(s)`);

    const text = await runCli(['state', '--blocked', '--principal', 'svc-etl', ...api_]);
    expect(text.code, text.stderr).toBe(0);
    const etl = states.acme.find((s) => s.key.principal === 'svc-etl')!;
    expect(text.stdout).toBe(
      `${etl.updatedAt} blocked permission sql.query principal=svc-etl resource=finance.salaries retries 0/0 since ${etl.openedAt} ${etl.keyId}\n`,
    );
    const usage = await runCli(['state', etl.keyId, '--blocked', ...api_]);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('a key id and listing options');
    expect((await runCli(['state', '--scope', 'global', ...api_])).code).toBe(2);
  });
});
