import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '@tokencircuit/governance';
import { pagerDutySignature } from '@tokencircuit/integrations';
import { waitFor } from '@tokencircuit/testing';
import { loadEmbeddedConfig } from '../../apps/fleet/src/embedded/embedded-config.js';
import { startEmbedded, type EmbeddedRuntime } from '../../apps/fleet/src/fleet-modes.js';
import { permissionDenied, requested, toolCall } from '@tokencircuit/contracts/testing';
import { incidentDelivery } from '../../libs/integrations/src/spec-support/pagerduty-deliveries.js';
import { HttpReceiver } from '../notifier/support/http-receiver.js';
import { writeNotifyFile } from '../notifier/support/notifier-harness.js';

const API_KEY = 'pd-round-trip-key-0123456789';
const PD_SECRET = 'pd-round-trip-webhook-secret-0123';
const WAIT = { maxWait: 60_000, interval: 50 };

// The whole loop in one process (`npm start`, embedded): a denial pages PagerDuty through the notifier, the
// on-call person acknowledges and resolves the incident in PagerDuty, PagerDuty's webhooks come back, and the
// projector, the decision service and the notifier carry the answers to the episode and back to the incident.
describe('PagerDuty round trip: page → acknowledge and resolve in PagerDuty → the key and the incident follow', () => {
  let dataDir: string;
  let runtime: EmbeddedRuntime | null = null;
  const pd = new HttpReceiver(() => ({ status: 202 }));

  beforeAll(async () => {
    await pd.start();
    dataDir = mkdtempSync(join(tmpdir(), 'tc-pd-round-trip-'));
    const notifyFile = writeNotifyFile({
      sinks: { oncall: { type: 'pagerduty', routingKey: { env: 'PD_KEY' }, url: pd.url } },
      routes: [{ match: { level: ['block', 'page'] }, sinks: ['oncall'] }],
    });
    const config = loadEmbeddedConfig({
      TOKENCIRCUIT_DATA_DIR: dataDir,
      TOKENCIRCUIT_API_KEYS: `acme:${API_KEY}`,
      TOKENCIRCUIT_PAGERDUTY_WEBHOOK_SECRETS: `acme:${PD_SECRET}`,
      API_HTTP_PORT: '0',
      TOKENCIRCUIT_NOTIFY_FILE: notifyFile,
      PD_KEY: 'round-trip-routing-key',
      NOTIFIER_POLL_INTERVAL_MS: '50',
      LOG_LEVEL: 'silent',
    });
    runtime = await startEmbedded(config, DEFAULT_CONFIG, pino({ level: 'silent' }));
  });

  afterAll(async () => {
    await runtime?.stop();
    await pd.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const api = (path: string, body?: unknown) =>
    fetch(`${runtime!.url}${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });

  /** What PagerDuty sends when the incident changes: signed with the subscription's secret. */
  const pagerDutySends = (type: string, incidentKey: string, eventId: string) => {
    const text = JSON.stringify(incidentDelivery(type, { incident_key: incidentKey }, { id: eventId }));
    return fetch(`${runtime!.url}/v1/integrations/pagerduty`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-pagerduty-signature': pagerDutySignature(Buffer.from(text), PD_SECRET),
      },
      body: text,
    });
  };
  const actions = () => pd.json<{ event_action: string; dedup_key: string }>();

  it('acknowledged and resolved in PagerDuty: one incident, the key acknowledged then resolved, echoes ignored', async () => {
    const sql = toolCall({ run: 'run-pd', principal: 'svc-billing' });
    expect((await api('/v1/events', { events: [requested('acme', sql), permissionDenied('acme', sql)] })).status).toBe(
      202,
    );
    await waitFor(() => pd.requests.length >= 1, { ...WAIT, name: 'the page' });
    const trigger = pd.json<{ dedup_key: string; payload: { custom_details: { key_id: string } } }>()[0]!;
    const episodeId = trigger.dedup_key;
    const keyId = trigger.payload.custom_details.key_id;

    const ack = await pagerDutySends('incident.acknowledged', episodeId, 'PD-RT-ACK');
    expect(ack.status).toBe(202);
    // The answer went all the way round: projector → decision service (acknowledged step) → notifier → PagerDuty.
    await waitFor(() => actions().length >= 2, { ...WAIT, name: 'the acknowledge sent back to PagerDuty' });
    expect(actions()[1]).toMatchObject({ event_action: 'acknowledge', dedup_key: episodeId });
    const acknowledged = (await (await api(`/v1/state/${encodeURIComponent(keyId)}`)).json()) as {
      state: { operator: { resolution: string; by: string } };
    };
    expect(acknowledged.state.operator).toMatchObject({ resolution: 'acknowledged', by: 'pagerduty:Alice Oncall' });

    // PagerDuty telling us again what we already know (a second webhook for the same state) changes nothing.
    const echo = await pagerDutySends('incident.acknowledged', episodeId, 'PD-RT-ACK-ECHO');
    expect(echo.status).toBe(200);
    expect(await echo.json()).toEqual({ outcome: 'ignored', reason: `episode ${episodeId} is already acknowledged` });

    const resolved = await pagerDutySends('incident.resolved', episodeId, 'PD-RT-RES');
    expect(resolved.status).toBe(202);
    await waitFor(() => actions().length >= 3, { ...WAIT, name: 'the resolve sent back to PagerDuty' });
    expect(actions().map((a) => a.event_action)).toEqual(['trigger', 'acknowledge', 'resolve']);
    expect(new Set(actions().map((a) => a.dedup_key))).toEqual(new Set([episodeId]));
    const state = (await (await api(`/v1/state/${encodeURIComponent(keyId)}`)).json()) as { status: string };
    expect(state.status).toBe('resolved');

    const late = await pagerDutySends('incident.resolved', episodeId, 'PD-RT-RES-AGAIN');
    expect(late.status).toBe(200);
    expect(await late.json()).toMatchObject({ outcome: 'ignored', reason: expect.stringMatching(/already resolved/) });
  });

  it('counts deliveries by outcome on /metrics', async () => {
    const text = await (await fetch(`${runtime!.url}/metrics`)).text();
    expect(text).toMatch(/^tokencircuit_api_pagerduty_webhooks_total\{outcome="resolution"\} 2$/m);
    expect(text).toMatch(/^tokencircuit_api_pagerduty_webhooks_total\{outcome="ignored"\} 2$/m);
    expect(text).not.toContain(PD_SECRET);
  });
});
