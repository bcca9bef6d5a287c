import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '@tokencircuit/governance';
import { waitFor } from '@tokencircuit/testing';
import { loadEmbeddedConfig } from '../../apps/fleet/src/embedded/embedded-config.js';
import { startEmbedded, type EmbeddedRuntime } from '../../apps/fleet/src/embedded/embedded-runtime.js';
import { permissionDenied, requested, toolCall } from '@tokencircuit/contracts/testing';
import { expectPagerDutyEvent } from '../../libs/notifier/src/spec-support/provider-shapes.js';
import { HttpReceiver } from './support/http-receiver.js';
import { writeNotifyFile } from './support/notifier-harness.js';

const API_KEY = 'notifier-embedded-key-0123456789';
const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const WAIT = { maxWait: 60_000, interval: 50 };

// `npm start` with TOKENCIRCUIT_NOTIFY_FILE: the whole path from an agent's denial to the pager, and the
// operator's acknowledgement and resolution back to it, in one process on PGlite and the bus.
describe('the notifier inside the embedded mode', () => {
  let dataDir: string;
  let runtime: EmbeddedRuntime | null = null;
  const pd = new HttpReceiver(() => ({ status: 202 }));
  const hook = new HttpReceiver(() => ({ status: 200 }));

  beforeAll(async () => {
    await pd.start();
    await hook.start();
    dataDir = mkdtempSync(join(tmpdir(), 'tc-embedded-notifier-'));
    const notifyFile = writeNotifyFile({
      sinks: {
        oncall: { type: 'pagerduty', routingKey: { env: 'PD_KEY' }, url: pd.url },
        audit: { type: 'webhook', url: hook.url, secret: { env: 'HOOK_SECRET' } },
      },
      routes: [{ match: { level: ['block', 'page'] }, sinks: ['oncall', 'audit'] }],
    });
    const config = loadEmbeddedConfig({
      TOKENCIRCUIT_DATA_DIR: dataDir,
      TOKENCIRCUIT_API_KEYS: `acme:${API_KEY}`,
      API_HTTP_PORT: '0',
      TOKENCIRCUIT_NOTIFY_FILE: notifyFile,
      PD_KEY: 'embedded-routing-key',
      HOOK_SECRET: SECRET,
      NOTIFIER_POLL_INTERVAL_MS: '50',
      LOG_LEVEL: 'silent',
    });
    runtime = await startEmbedded(config, DEFAULT_CONFIG, pino({ level: 'silent' }));
  });

  afterAll(async () => {
    await runtime?.stop();
    await pd.stop();
    await hook.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const call = (path: string, body?: unknown) =>
    fetch(`${runtime!.url}${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });

  it('pages on a denial, acknowledges and resolves the same incident on the operator resolutions', async () => {
    const sql = toolCall({ run: 'run-notify', principal: 'svc-billing' });
    expect((await call('/v1/events', { events: [requested('acme', sql), permissionDenied('acme', sql)] })).status).toBe(
      202,
    );
    await waitFor(() => pd.requests.length >= 1 && hook.requests.length >= 1, { ...WAIT, name: 'the page' });
    const trigger = pd.json<{
      event_action: string;
      dedup_key: string;
      payload: { custom_details: { key_id: string } };
    }>()[0]!;
    expectPagerDutyEvent(trigger, 'trigger');
    const keyId = trigger.payload.custom_details.key_id;
    const signed = hook.requests[0]!;
    expect(new Webhook(SECRET).verify(signed.body, signed.headers as Record<string, string>)).toMatchObject({
      type: 'dev.tokencircuit.episode.triggered.v1',
      subject: trigger.dedup_key,
    });

    const ack = await call('/v1/resolutions', { keyId, resolution: 'acknowledged', by: 'alice', reason: 'on it' });
    expect(ack.status).toBe(202);
    await waitFor(() => pd.requests.length >= 2, { ...WAIT, name: 'the acknowledgement' });
    const fixed = await call('/v1/resolutions', {
      keyId,
      resolution: 'auth_granted',
      by: 'alice',
      reason: 'grant added',
    });
    expect(fixed.status).toBe(202);
    await waitFor(() => pd.requests.length >= 3, { ...WAIT, name: 'the resolution' });

    const events = pd.json<{ event_action: string; dedup_key: string }>();
    expect(events.map((e) => e.event_action)).toEqual(['trigger', 'acknowledge', 'resolve']);
    expect(new Set(events.map((e) => e.dedup_key))).toEqual(new Set([trigger.dedup_key]));
    await waitFor(() => hook.requests.length >= 3, { ...WAIT, name: 'the webhook copies' });
    expect(hook.requests.map((r) => JSON.parse(r.body).type)).toEqual([
      'dev.tokencircuit.episode.triggered.v1',
      'dev.tokencircuit.episode.acknowledged.v1',
      'dev.tokencircuit.episode.resolved.v1',
    ]);
  });

  it("serves the notifier's metrics beside the API's", async () => {
    const text = await (await fetch(`${runtime!.url}/metrics`)).text();
    expect(text).toMatch(/^tokencircuit_notifier_deliveries_sent_total\{sink="oncall",sink_type="pagerduty"\} [1-9]/m);
    expect(text).toMatch(/^tokencircuit_notifier_queue_depth\{sink="audit"\} 0/m);
    expect(text).not.toContain('embedded-routing-key');
  });
});
