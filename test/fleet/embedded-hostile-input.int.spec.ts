import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '@tokencircuit/governance';
import { waitFor } from '@tokencircuit/testing';
import { loadEmbeddedConfig } from '../../apps/fleet/src/embedded/embedded-config.js';
import { startEmbedded, type EmbeddedRuntime } from '../../apps/fleet/src/fleet-modes.js';
import { permissionDenied, requested, toolCall } from '@tokencircuit/contracts/testing';
import { edgeEvents, hostileHttpRequests, type HostileHttpRequest } from '../support/hostile-http-requests.js';

const TENANT = 'acme';
const API_KEY = 'hostile-embedded-key-0123456789';

/**
 * Embedded mode (PGlite + in-process bus): the projector runs inside the ingest request, so whatever the
 * contract lets through that storage or the core then refuses would surface as the request's 5xx, or as a
 * 202 for an event that is parked and never applied. Every hostile request must get a 4xx JSON error,
 * the server must stay ready, and the valid events sent between them must all be folded.
 */
describe('embedded mode refuses hostile input with a 4xx and keeps folding', () => {
  let dataDir: string;
  let runtime: EmbeddedRuntime | null = null;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'tc-embedded-hostile-'));
    const config = loadEmbeddedConfig({
      TOKENCIRCUIT_DATA_DIR: dataDir,
      TOKENCIRCUIT_API_KEYS: `${TENANT}:${API_KEY}`,
      API_HTTP_PORT: '0',
      LOG_LEVEL: 'silent',
    });
    runtime = await startEmbedded(config, DEFAULT_CONFIG, pino({ level: 'silent' }));
  });

  afterAll(async () => {
    await runtime?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const send = (request: HostileHttpRequest) =>
    fetch(`${runtime!.url}${request.path}`, {
      method: request.method,
      headers: {
        authorization: `Bearer ${API_KEY}`,
        ...(request.body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(request.body === undefined ? {} : { body: request.body }),
    });

  const cases = hostileHttpRequests(TENANT);

  it.each(cases.map((c) => [c.kind, c] as const))('%s: 4xx JSON error, then still ready and folding', async (_, c) => {
    const response = await send(c);
    const text = await response.text();
    expect(response.status, `${c.kind}: ${text.slice(0, 300)}`).toBeGreaterThanOrEqual(400);
    expect(response.status, `${c.kind}: ${text.slice(0, 300)}`).toBeLessThan(500);
    expect(response.headers.get('content-type')).toMatch(/json/);
    expect(JSON.parse(text)).toHaveProperty('error');

    // The server is still ready, and a valid pair sent right after is folded (the request returns once
    // the in-process projector has committed it).
    expect((await fetch(`${runtime!.url}/health/ready`)).status).toBe(200);
    const call = toolCall({ run: `run-after-${cases.indexOf(c)}` });
    const valid = [requested(TENANT, call), permissionDenied(TENANT, call)];
    const ingest = await send({
      kind: 'valid',
      method: 'POST',
      path: '/v1/events',
      body: JSON.stringify({ events: valid }),
    });
    expect(ingest.status, await ingest.clone().text()).toBe(202);
    const { rows } = await runtime!.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM agent_events WHERE tenant = $1 AND id = ANY($2)',
      [TENANT, valid.map((e) => e.id)],
    );
    expect(rows[0]!.n).toBe(2);
  });

  const edges = edgeEvents(TENANT);

  it.each(edges.map((e) => [e.kind, e.event] as const))(
    '%s: accepted, then applied (never parked after a 202)',
    async (_, event) => {
      const response = await send({ kind: 'edge', method: 'POST', path: '/v1/events', body: JSON.stringify(event) });
      expect(response.status, await response.clone().text()).toBe(202);
      const { rows } = await runtime!.db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM agent_events WHERE tenant = $1 AND id = $2',
        [TENANT, event.id],
      );
      expect(rows[0]!.n).toBe(1);
    },
  );

  it('stored no hostile event, every valid and edge one, and parked no decision', async () => {
    const { rows } = await runtime!.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM agent_events WHERE id LIKE 'hostile-%'`,
    );
    expect(rows[0]!.n).toBe(0);
    const { rows: all } = await runtime!.db.query<{ n: number }>('SELECT count(*)::int AS n FROM agent_events');
    expect(all[0]!.n).toBe(cases.length * 2 + edges.length);
    // The decision module is woken by NOTIFY after each commit: every outbox row is published, none parked
    // (a notBefore past year 9999 once made the intervention unstorable).
    const outbox = await waitFor(
      async () => {
        const { rows: pending } = await runtime!.db.query<{ pending: number; parked: number; total: number }>(
          `SELECT count(*) FILTER (WHERE published_at IS NULL AND parked_at IS NULL)::int AS pending,
                  count(*) FILTER (WHERE parked_at IS NOT NULL)::int AS parked, count(*)::int AS total
             FROM decision_outbox`,
        );
        return pending[0]!.pending === 0 ? pending[0]! : undefined;
      },
      { maxWait: 60_000, name: 'the decision outbox drained' },
    );
    expect(outbox.parked).toBe(0);
    expect(outbox.total).toBeGreaterThan(cases.length);
  });
});
