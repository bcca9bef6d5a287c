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

const API_KEY = 'compose-embedded-key-0123456789';
const OTHER_KEY = 'compose-embedded-globex-0123456789';

// The embedded mode runs the production projector and decision modules on PGlite and the bus: the same
// settings from the same variables, the same metrics, and decisions woken by the same NOTIFY trigger.
describe('embedded mode composes the production modules (PGlite + in-process bus)', () => {
  let dataDir: string;
  let runtime: EmbeddedRuntime | null = null;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'tc-embedded-compose-'));
    const config = loadEmbeddedConfig({
      TOKENCIRCUIT_DATA_DIR: dataDir,
      TOKENCIRCUIT_API_KEYS: `acme:${API_KEY},globex:${OTHER_KEY}`,
      // The quotas come from the same variables as in the connected mode; small, so a tenant can spend them.
      API_PREFLIGHT_PER_SECOND: '1',
      API_PREFLIGHT_BURST: '2',
      API_HTTP_PORT: '0',
      // A poll this slow never fires during the test: only the outbox NOTIFY can wake the decision module.
      DECISION_POLL_INTERVAL_MS: '3600000',
      DECISION_BATCH_SIZE: '7',
      LOG_LEVEL: 'silent',
    });
    expect(config.decision.DECISION_BATCH_SIZE).toBe(7);
    expect(config.api.API_PREFLIGHT_BURST).toBe(2);
    runtime = await startEmbedded(config, DEFAULT_CONFIG, pino({ level: 'silent' }));
  });

  afterAll(async () => {
    await runtime?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const call = (path: string, init: RequestInit = {}) =>
    fetch(`${runtime!.url}${path}`, {
      ...init,
      headers: { authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json', ...init.headers },
    });

  it('turns an ingested denial into an intervention through the outbox notification alone', async () => {
    const sql = toolCall({ run: 'run-compose' });
    const response = await call('/v1/events', {
      method: 'POST',
      body: JSON.stringify({ events: [requested('acme', sql), permissionDenied('acme', sql)] }),
    });
    expect(response.status).toBe(202);
    const interventions = await waitFor(
      async () => {
        const page = (await (await call('/v1/audit/interventions')).json()) as { items: { level: string }[] };
        return page.items.length > 0 ? page.items : undefined;
      },
      { maxWait: 20_000, name: 'the intervention of the denial' },
    );
    expect(interventions[0]!.level).toBe('block');
  });

  it('enforces the per-tenant preflight quota: 429 with Retry-After for the spender, 200 for another tenant', async () => {
    const preflight = (key: string) =>
      fetch(`${runtime!.url}/v1/preflight`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ call: toolCall({ run: 'run-quota' }) }),
      });
    // 1 request/s after a burst of 2: however slow this machine, 30 requests in a row cannot all fit.
    let refused: Response | undefined;
    for (let i = 0; i < 30 && refused === undefined; i++) {
      const response = await preflight(API_KEY);
      if (response.status === 429) refused = response;
      else expect(response.status).toBe(200);
    }
    expect(refused, 'a 429 within 30 requests').toBeDefined();
    expect(Number(refused!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(await refused!.json()).toMatchObject({ error: 'rate_limited', quota: 'preflight' });
    expect((await preflight(OTHER_KEY)).status).toBe(200);
  });

  it("serves the projector's and the decision module's metrics beside the API's at /metrics", async () => {
    const text = await (await fetch(`${runtime!.url}/metrics`)).text();
    expect(text).toMatch(/^tokencircuit_api_requests_total/m);
    expect(text).toMatch(/^tokencircuit_projector_\w+/m);
    expect(text).toMatch(/^tokencircuit_decision_\w+/m);
    expect(text).toMatch(/^tokencircuit_projector_events_total\{[^}]*\} [1-9]/m);
  });
});
