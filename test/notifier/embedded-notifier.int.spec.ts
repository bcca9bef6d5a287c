import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '@tokencircuit/governance';
import { waitFor } from '@tokencircuit/testing';
import { loadEmbeddedConfig } from '../../apps/fleet/src/embedded/embedded-config.js';
import { startEmbedded, type EmbeddedRuntime } from '../../apps/fleet/src/fleet-modes.js';
import { permissionDenied, requested, toolCall } from '@tokencircuit/contracts/testing';
import {
  expectPagerDutyEvent,
  expectPersonFirst,
  expectSlackMessage,
} from '../../libs/notifier/src/spec-support/provider-shapes.js';
import { eventsOf } from '../../apps/cli/src/scenarios/scenario.js';
import { unknownRefundScenario } from '../../apps/cli/src/scenarios/page-unknown-refund.js';
import { HttpReceiver } from './support/http-receiver.js';
import { writeNotifyFile } from './support/notifier-harness.js';

const API_KEY = 'notifier-embedded-key-0123456789';
const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const WAIT = { maxWait: 60_000, interval: 50 };
const SECRET_ARGUMENT = 'sk_live_51HxAbCdEfGhIjKlMnOpQrStUv';

// `npm start` with TOKENCIRCUIT_NOTIFY_FILE: the whole path from an agent's denial to the pager, and the
// operator's acknowledgement and resolution back to it, in one process on PGlite and the bus.
describe('the notifier inside the embedded mode', () => {
  let dataDir: string;
  let runtime: EmbeddedRuntime | null = null;
  const pd = new HttpReceiver(() => ({ status: 202 }));
  const hook = new HttpReceiver(() => ({ status: 200 }));
  // Issue 27: the page a person gets, in every sink (only page-level steps go to these two).
  const slack = new HttpReceiver(() => ({ status: 200, body: 'ok' }));
  const alertmanager = new HttpReceiver(() => ({ status: 200 }));

  beforeAll(async () => {
    await pd.start();
    await hook.start();
    await slack.start();
    await alertmanager.start();
    dataDir = mkdtempSync(join(tmpdir(), 'tc-embedded-notifier-'));
    const notifyFile = writeNotifyFile({
      sinks: {
        oncall: { type: 'pagerduty', routingKey: { env: 'PD_KEY' }, url: pd.url },
        audit: { type: 'webhook', url: hook.url, secret: { env: 'HOOK_SECRET' } },
        chat: { type: 'slack', webhookUrl: `${slack.url}/services/T0/B0/X0` },
        am: { type: 'alertmanager', url: alertmanager.url },
      },
      routes: [
        { match: { level: ['block', 'page'] }, sinks: ['oncall', 'audit'] },
        { match: { level: ['page'] }, sinks: ['chat', 'am'] },
      ],
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
    await slack.stop();
    await alertmanager.stop();
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

  it('the demo page reads like a page: one line, the next action, which refund (no secret), then the evidence, in every sink', async () => {
    const scenario = unknownRefundScenario({ tenant: 'acme', suffix: 'emb', start: new Date().toISOString() });
    const events = eventsOf(scenario);
    // The agent's SDK would never send a secret along, but one that does must not see it in a page.
    const first = events[0]! as { data: { call: { arguments: Record<string, unknown> } } };
    first.data.call.arguments = { ...first.data.call.arguments, api_key: SECRET_ARGUMENT };
    const pdBefore = pd.requests.length;
    const hookBefore = hook.requests.length;
    expect((await call('/v1/events', { events })).status).toBe(202);
    // block (the timeout) then page (verification inconclusive): PagerDuty and the webhook get both.
    await waitFor(
      () => pd.requests.length >= pdBefore + 2 && hook.requests.length >= hookBefore + 2 && slack.requests.length >= 1,
      { ...WAIT, name: 'the escalation to a page' },
    );
    await waitFor(() => alertmanager.requests.length >= 1, { ...WAIT, name: 'the Alertmanager alert' });
    const want = {
      summary:
        'support-agent: write of unknown outcome (payments.refund on payments-api:/v1/refunds) — check whether the write happened',
      action: 'reconcile_before_retry',
      argument: ['charge_id', 'ch_3PqK8a2eZvKYlo2C'],
      secret: SECRET_ARGUMENT,
    } as const;
    const page = pd.requests[pdBefore + 1]!.body;
    expectPagerDutyEvent(JSON.parse(page), 'trigger');
    expect(JSON.parse(page)).toMatchObject({ payload: { severity: 'critical' } });
    expectPersonFirst('pagerduty', page, want);
    expectPersonFirst('webhook', hook.requests[hookBefore + 1]!.body, want);
    expectPersonFirst('slack', slack.requests[0]!.body, want);
    expectSlackMessage(JSON.parse(slack.requests[0]!.body));
    expectPersonFirst('alertmanager', alertmanager.requests[0]!.body, want);
    // Which refund: the identifying arguments first, the amount after them.
    expect(JSON.parse(page).payload.custom_details.arguments).toMatchObject({
      charge_id: 'ch_3PqK8a2eZvKYlo2C',
      order_id: 'ord_20261201_0042',
      amount_cents: '4999',
    });
  });

  it("serves the notifier's metrics beside the API's", async () => {
    const text = await (await fetch(`${runtime!.url}/metrics`)).text();
    expect(text).toMatch(/^tokencircuit_notifier_deliveries_sent_total\{sink="oncall",sink_type="pagerduty"\} [1-9]/m);
    expect(text).toMatch(/^tokencircuit_notifier_queue_depth\{sink="audit"\} 0/m);
    expect(text).not.toContain('embedded-routing-key');
  });
});
