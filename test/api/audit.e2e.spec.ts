import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '@tokencircuit/governance';
import type { ChainedIntervention } from '@tokencircuit/storage';
import {
  ChainReportSchema,
  FailureStateRecordSchema,
  InterventionDetailSchema,
  InterventionPageSchema,
} from '@tokencircuit/api-http';
import { permissionDenied, requested, toolCall, unavailable } from '@tokencircuit/contracts/testing';
import { ApiClient } from '../../apps/cli/src/api/api-client.js';
import { verifyWholeChain } from '../../apps/cli/src/audit/verify-pages.js';
import { ApiHarness, KEYS, type Tenant } from './support/api-harness.js';
import { seedFromEvents } from './support/seed.js';

type Seeded = Awaited<ReturnType<typeof seedFromEvents>>;

/** A tenant's fleet: permission denials for several principals, retries that ignore the block, a transient 503. */
function fleetEvents(tenant: string, hour: number) {
  const at = (minute: number) =>
    `2026-01-05T${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}:00.000Z`;
  const events = [];
  for (const [i, principal] of ['svc-reporting', 'svc-etl', 'svc-ml'].entries()) {
    const call = toolCall({
      agent: `agent-${i}`,
      run: `run-${tenant}-${i}`,
      principal,
      resourceId: 'finance.salaries',
    });
    events.push(requested(tenant, call, at(i * 10)), permissionDenied(tenant, call, at(i * 10 + 1)));
  }
  // The first agent retries twice with new queries: budget 0, each attempt is a violation.
  for (const minute of [2, 3]) {
    const retry = toolCall({
      agent: 'agent-0',
      run: `run-${tenant}-0`,
      principal: 'svc-reporting',
      resourceId: 'finance.salaries',
      attempt: minute,
      arguments: { q: `SELECT ${minute}` },
    });
    events.push(requested(tenant, retry, at(minute)));
  }
  const http = toolCall({
    agent: 'crawler',
    run: `run-${tenant}-http`,
    tool: 'http.get',
    resourceClass: 'api_endpoint',
    resourceId: null,
    authScope: null,
    principal: null,
    sqlStatement: null,
    httpMethod: 'GET',
  });
  events.push(unavailable(tenant, http, at(40)));
  return events;
}

describe('audit API under row-level security (real Postgres)', () => {
  let api: ApiHarness;
  const seeded = {} as Record<Tenant, Seeded>;

  beforeAll(async () => {
    api = await ApiHarness.start();
    seeded.acme = await seedFromEvents(api.database.pool, fleetEvents('acme', 9), DEFAULT_CONFIG);
    seeded.globex = await seedFromEvents(api.database.pool, fleetEvents('globex', 11), DEFAULT_CONFIG);
    for (const tenant of ['acme', 'globex'] as const) {
      expect(seeded[tenant].interventions.length).toBeGreaterThanOrEqual(5);
      expect(new Set(seeded[tenant].interventions.map((i) => i.failureClass))).toEqual(
        new Set(['permission', 'transient']),
      );
    }
  });
  afterAll(async () => {
    await api?.close();
  });

  const newestFirst = (rows: readonly ChainedIntervention[]) =>
    [...rows].sort((a, b) => b.seq - a.seq).map((r) => r.id);

  async function listAll(tenant: Tenant, query: string) {
    const ids: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const suffix: string = cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`;
      const response = await api.as(tenant, `/v1/audit/interventions?${query}${suffix}`);
      expect(response.status).toBe(200);
      const page = InterventionPageSchema.parse(await response.json());
      ids.push(...page.items.map((i) => i.id));
      cursor = page.nextCursor;
      pages += 1;
    } while (cursor !== null && pages < 100);
    return { ids, pages };
  }

  describe('tenant isolation: every endpoint shows the key’s tenant only', () => {
    it('lists only the own tenant’s interventions', async () => {
      for (const tenant of ['acme', 'globex'] as const) {
        const response = await api.as(tenant, '/v1/audit/interventions?limit=500');
        const page = InterventionPageSchema.parse(await response.json());
        expect(page.items.map((i) => i.id)).toEqual(newestFirst(seeded[tenant].interventions));
        expect(page.items.every((i) => i.tenant === tenant)).toBe(true);
      }
    });

    it('finds another tenant’s intervention, state and chain as if they did not exist', async () => {
      const theirs = seeded.globex.interventions[0]!;
      expect((await api.as('acme', `/v1/audit/interventions/${encodeURIComponent(theirs.id)}`)).status).toBe(404);
      expect((await api.as('globex', `/v1/audit/interventions/${encodeURIComponent(theirs.id)}`)).status).toBe(200);

      const theirState = seeded.globex.states[0]!;
      const notFound = await api.as('acme', `/v1/state/${encodeURIComponent(theirState.keyId)}`);
      expect(notFound.status).toBe(404);
      expect(await notFound.json()).toMatchObject({ error: 'not_found' });

      const csv = await (await api.as('acme', '/v1/audit/interventions?format=csv&limit=500')).text();
      for (const row of seeded.globex.interventions) expect(csv).not.toContain(row.id);

      const verify = ChainReportSchema.parse(await (await api.as('acme', '/v1/audit/verify')).json());
      expect(verify.result).toEqual({ ok: true, checked: seeded.acme.interventions.length });
    });

    it('lets no query parameter widen the scope', async () => {
      const response = await api.as('acme', '/v1/audit/interventions?tenant=globex');
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ error: 'invalid_query', field: 'tenant' });
      const byPrincipal = await listAll('acme', `principal=svc-reporting&run=run-globex-0`);
      expect(byPrincipal.ids).toEqual([]);
    });

    it('refuses every audit endpoint without a key', async () => {
      for (const path of ['/v1/audit/interventions', '/v1/audit/interventions/x', '/v1/audit/verify', '/v1/state/x']) {
        expect((await api.request(path)).status, path).toBe(401);
      }
    });
  });

  it('shows one intervention with its artifact and the events that caused it', async () => {
    const row = seeded.acme.interventions.find((i) => i.failureClass === 'permission')!;
    const detail = InterventionDetailSchema.parse(
      await (await api.as('acme', `/v1/audit/interventions/${row.id}`)).json(),
    );
    expect(detail).toMatchObject({ id: row.id, seq: row.seq, hash: row.hash, keyId: row.keyId, tenant: 'acme' });
    expect(detail.artifact).toEqual(row.artifact);
    expect(detail.causingEvents.map((e) => e.id).sort()).toEqual([...row.causingEventIds].sort());
    expect(detail.causingEvents.every((e) => e.cloudEvent['tenantid'] === 'acme')).toBe(true);
  });

  it('shows the current failure state of a key', async () => {
    const state = seeded.acme.states.find((s) => s.key.scope === 'fleet')!;
    const response = await api.as('acme', `/v1/state/${encodeURIComponent(state.keyId)}`);
    const record = FailureStateRecordSchema.parse(await response.json());
    expect(record).toMatchObject({
      keyId: state.keyId,
      tenant: 'acme',
      scope: 'fleet',
      status: state.status,
      version: state.version,
    });
    expect(record.state).toEqual(JSON.parse(JSON.stringify(state)));
  });

  it('filters by class, level, tool, principal, run and time', async () => {
    const rows = seeded.acme.interventions;
    const expectFilter = async (query: string, keep: (r: ChainedIntervention) => boolean) => {
      const expected = newestFirst(rows.filter(keep));
      expect(expected.length, query).toBeGreaterThan(0);
      expect((await listAll('acme', query)).ids, query).toEqual(expected);
    };
    await expectFilter('class=transient', (r) => r.failureClass === 'transient');
    await expectFilter('class=permission&level=block', (r) => r.failureClass === 'permission' && r.level === 'block');
    await expectFilter('tool=http.get', (r) => r.toolName === 'http.get');
    await expectFilter('principal=svc-etl', (r) => r.principal === 'svc-etl');
    await expectFilter('run=run-acme-http', (r) => r.run === 'run-acme-http');
    const from = '2026-01-05T09:05:00.000Z';
    const to = '2026-01-05T09:35:00.000Z';
    await expectFilter(`from=${from}&to=${to}`, (r) => r.issuedAt >= from && r.issuedAt < to);
  });

  it('pages with an opaque cursor, newest first or oldest first, without gaps or repeats', async () => {
    const all = seeded.acme.interventions;
    const desc = await listAll('acme', 'limit=2');
    expect(desc.ids).toEqual(newestFirst(all));
    expect(desc.pages).toBe(Math.ceil(all.length / 2));
    const asc = await listAll('acme', 'limit=3&order=asc');
    expect(asc.ids).toEqual(newestFirst(all).reverse());

    const bad = await api.as('acme', '/v1/audit/interventions?cursor=not-a-cursor');
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ error: 'invalid_cursor', field: 'cursor' });
  });

  it('exports CSV with a header row, RFC 4180 quoting and the next cursor in a header', async () => {
    const all = seeded.acme.interventions;
    const response = await api.as('acme', `/v1/audit/interventions?format=csv&limit=${all.length - 1}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(response.headers.get('x-next-cursor')).toMatch(/^[A-Za-z0-9_-]+$/);
    const text = await response.text();
    expect(text.endsWith('\r\n')).toBe(true);
    const [header, ...records] = splitCsvRecords(text);
    expect(header!.slice(0, 6)).toEqual(['seq', 'id', 'issued_at', 'tenant', 'agent', 'run']);
    expect(records).toHaveLength(all.length - 1);
    const justificationColumn = header!.indexOf('safety_justification');
    const newest = [...all].sort((a, b) => b.seq - a.seq);
    for (const [i, record] of records.entries()) {
      expect(record[1]).toBe(newest[i]!.id);
      expect(record[justificationColumn]).toBe(
        (newest[i]!.artifact as { safety_justification: string }).safety_justification,
      );
    }
    const rest = await api.as(
      'acme',
      `/v1/audit/interventions?format=csv&limit=${all.length}&cursor=${response.headers.get('x-next-cursor')}`,
    );
    expect(splitCsvRecords(await rest.text())).toHaveLength(2);
    expect(rest.headers.get('x-next-cursor')).toBeNull();
  });

  it('verifies each tenant’s hash chain and reports its head', async () => {
    for (const tenant of ['acme', 'globex'] as const) {
      const report = ChainReportSchema.parse(await (await api.as(tenant, '/v1/audit/verify')).json());
      const last = seeded[tenant].interventions.at(-1)!;
      expect(report).toEqual({
        tenant,
        result: { ok: true, checked: seeded[tenant].interventions.length },
        next: null,
        head: { seq: last.seq, hash: last.hash },
      });
    }
  });

  // Issue 28: one request's verification cost is bounded (a page of `limit` rows), the pages chain by cursor.
  it('verifies the chain a bounded page at a time, each page continuing from the hash the previous one ended on', async () => {
    const rows = seeded.globex.interventions;
    let cursor: string | null = null;
    let checked = 0;
    let pages = 0;
    do {
      const query: string = cursor === null ? '?limit=2' : `?limit=2&cursor=${cursor}`;
      const report = ChainReportSchema.parse(await (await api.as('globex', `/v1/audit/verify${query}`)).json());
      expect(report.result.ok).toBe(true);
      expect(report.result.checked).toBeLessThanOrEqual(2);
      checked += report.result.checked;
      cursor = report.next;
      pages += 1;
    } while (cursor !== null);
    expect(checked).toBe(rows.length);
    expect(pages).toBe(Math.floor(rows.length / 2) + 1);

    // A page larger than the cap, and a cursor this API did not issue, are refused; nothing is verified.
    const tooLarge = await api.as('globex', '/v1/audit/verify?limit=10001');
    expect(tooLarge.status).toBe(400);
    expect(await tooLarge.json()).toMatchObject({ error: 'invalid_query', field: 'limit' });
    const forged = Buffer.from(`v1:${rows[1]!.seq}:${'0'.repeat(64)}`).toString('base64url');
    const broken = ChainReportSchema.parse(await (await api.as('globex', `/v1/audit/verify?cursor=${forged}`)).json());
    // A cursor names the hash the previous page ended on: a wrong one breaks the link at the next row.
    expect(broken.result).toMatchObject({ ok: false, checked: 0, firstBrokenSeq: rows[2]!.seq });
    expect((await api.as('globex', '/v1/audit/verify?cursor=not-a-cursor')).status).toBe(400);
  });

  it('`tokencircuit verify` walks the pages: their verdicts add up to the whole chain, with the newest head', async () => {
    const client = new ApiClient(
      { url: api.baseUrl, apiKey: KEYS.acme, tenant: 'acme', keySource: 'the spec' },
      new AbortController().signal,
    );
    const whole = await verifyWholeChain(client, {}, 2);
    const last = seeded.acme.interventions.at(-1)!;
    expect(whole).toEqual({
      tenant: 'acme',
      result: { ok: true, checked: seeded.acme.interventions.length },
      next: null,
      head: { seq: last.seq, hash: last.hash },
    });
  });

  it('detects a row edited behind the database’s back (triggers bypassed by a superuser)', async () => {
    const initech = await seedFromEvents(api.database.pool, fleetEvents('initech', 13), DEFAULT_CONFIG);
    const victim = initech.interventions[1]!;
    const client = await api.database.pool.connect();
    try {
      await client.query("SET session_replication_role = 'replica'"); // disables the append-only triggers for this session
      await client.query(`UPDATE interventions SET next_action = 'proceed' WHERE id = $1`, [victim.id]);
      await client.query("SET session_replication_role = 'origin'");
    } finally {
      client.release();
    }
    const report = ChainReportSchema.parse(await (await api.as('initech', '/v1/audit/verify')).json());
    expect(report.result).toMatchObject({ ok: false, checked: 1, firstBrokenSeq: victim.seq });
    // Walked one row a page, the break is found on the second page, with the rows before it counted.
    const cli = new ApiClient(
      { url: api.baseUrl, apiKey: KEYS.initech, tenant: 'initech', keySource: 'the spec' },
      new AbortController().signal,
    );
    expect((await verifyWholeChain(cli, {}, 1)).result).toMatchObject({
      ok: false,
      checked: 1,
      firstBrokenSeq: victim.seq,
    });
    // The other tenants' chains are untouched.
    expect(ChainReportSchema.parse(await (await api.as('acme', '/v1/audit/verify')).json()).result.ok).toBe(true);
  });
});

/** A small RFC 4180 reader for the assertions (quoted fields, doubled quotes, CRLF records). */
function splitCsvRecords(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      record.push(field);
      field = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      record.push(field);
      records.push(record);
      record = [];
      field = '';
      i++;
    } else field += c;
  }
  return records;
}
