import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cloudEventToAgentEvent, fromKafkaRecord, type AgentEvent } from '@tokencircuit/contracts';
import { createGovernance, DEFAULT_CONFIG, type FailureState } from '@tokencircuit/governance';
import { pagerDutySignature } from '@tokencircuit/integrations';
import { consumeUntil } from '@tokencircuit/testing';
import { PagerDutyWebhookAnswerSchema } from '@tokencircuit/api-http';
import { permissionDenied, requested, toolCall } from '@tokencircuit/contracts/testing';
import { incidentDelivery } from '../../libs/integrations/src/spec-support/pagerduty-deliveries.js';
import { ApiHarness } from './support/api-harness.js';
import { seedWithEpisodes } from './support/seed-episodes.js';

const governance = createGovernance(DEFAULT_CONFIG);

const SECRETS = { acme: 'acme-pagerduty-webhook-secret-e2e-0123', globex: 'globex-pagerduty-webhook-secret-e2e-0123' };
const WEBHOOK = '/v1/integrations/pagerduty';

describe('POST /v1/integrations/pagerduty: PagerDuty webhook v3 → operator resolution (real Kafka, real Postgres)', () => {
  let api: ApiHarness;
  let acme: { state: FailureState; episodeId: string; events: AgentEvent[] };
  let globex: { state: FailureState; episodeId: string };
  const accepted: string[] = [];

  beforeAll(async () => {
    api = await ApiHarness.start({ pagerDutySecrets: `acme:${SECRETS.acme},globex:${SECRETS.globex}` });
    const call = toolCall({ principal: 'svc-reporting' });
    const a = await seedWithEpisodes(api.database.pool, [permissionDenied('acme', call)], DEFAULT_CONFIG);
    const g = await seedWithEpisodes(api.database.pool, [permissionDenied('globex', call)], DEFAULT_CONFIG);
    // The decision service's triggered step of each key's first episode: its id is the incident key.
    expect(a.steps.map((s) => s.transition)).toEqual(['triggered']);
    acme = { state: a.states[0]!, episodeId: a.steps[0]!.episodeId, events: a.events };
    globex = { state: g.states[0]!, episodeId: g.steps[0]!.episodeId };
  });
  afterAll(async () => {
    await api?.close();
  });

  /** A delivery as PagerDuty sends it: these exact bytes, signed with the secret. */
  function deliver(body: unknown, secret: string | null, options: { text?: string; signature?: string } = {}) {
    const text = options.text ?? JSON.stringify(body);
    const signature =
      options.signature ?? (secret === null ? undefined : pagerDutySignature(Buffer.from(text), secret));
    return api.request(WEBHOOK, {
      rawBody: text,
      headers: { 'user-agent': 'PagerDuty-Webhook/V3.0', ...(signature ? { 'x-pagerduty-signature': signature } : {}) },
    });
  }

  const incident = (type: string, episodeId: string, eventId: string) =>
    incidentDelivery(type, { incident_key: episodeId }, { id: eventId });

  async function published(id: string): Promise<AgentEvent> {
    const received = await consumeUntil(api.topic, (messages) =>
      messages.some((m) => m.headers['ce_id']?.toString() === id),
    );
    return cloudEventToAgentEvent(fromKafkaRecord(received.find((m) => m.headers['ce_id']?.toString() === id)!));
  }

  it('incident.acknowledged → 202 and an "acknowledged" operator resolution of the episode’s key on the topic', async () => {
    const response = await deliver(incident('incident.acknowledged', acme.episodeId, 'PD-EVT-ACK-1'), SECRETS.acme);
    expect(response.status).toBe(202);
    const answer = PagerDutyWebhookAnswerSchema.parse(await response.json());
    expect(answer).toMatchObject({ outcome: 'resolution', keyId: acme.state.keyId, episodeId: acme.episodeId });
    if (answer.outcome !== 'resolution') throw new Error('unreachable');
    accepted.push(answer.id);

    const event = await published(answer.id);
    expect(event).toMatchObject({
      type: 'operator.resolution',
      tenant: 'acme',
      data: {
        keyId: acme.state.keyId,
        resolution: 'acknowledged',
        by: 'pagerduty:Alice Oncall',
        reason: expect.stringContaining('PagerDuty incident #42 acknowledged by Alice Oncall'),
      },
    });
    // What the projector will do with it: the core records the acknowledgement on the key.
    const folded = governance.replay([...acme.events, event]).states.get(acme.state.keyId)!;
    expect(folded.operator).toMatchObject({ resolution: 'acknowledged', by: 'pagerduty:Alice Oncall' });
  });

  it('a redelivery of the same PagerDuty event makes the same event id (the projector counts it once)', async () => {
    const again = await deliver(incident('incident.acknowledged', acme.episodeId, 'PD-EVT-ACK-1'), SECRETS.acme);
    expect(again.status).toBe(202);
    expect(((await again.json()) as { id: string }).id).toBe(accepted[0]);
  });

  it('incident.resolved → a "reset" resolution, so the key is resolved and agents may try again', async () => {
    const response = await deliver(incident('incident.resolved', acme.episodeId, 'PD-EVT-RES-1'), SECRETS.acme);
    expect(response.status).toBe(202);
    const answer = (await response.json()) as { id: string; resolution: string };
    expect(answer.resolution).toBe('reset');
    accepted.push(answer.id);
    const event = await published(answer.id);
    const folded = governance.replay([...acme.events, event]).states.get(acme.state.keyId)!;
    expect(folded.status).toBe('resolved');
  });

  it('401 for a missing, unknown or stale signature, and for bytes changed after signing; an API key is no substitute', async () => {
    const body = incident('incident.resolved', acme.episodeId, 'PD-EVT-FORGED');
    const text = JSON.stringify(body);
    for (const response of [
      await deliver(body, null),
      await deliver(body, 'a-secret-nobody-configured-0123'),
      await deliver(body, null, { text: `${text} `, signature: pagerDutySignature(Buffer.from(text), SECRETS.acme) }),
      await api.as('acme', WEBHOOK, { rawBody: text }),
    ]) {
      expect(response.status).toBe(401);
      expect(await response.json()).toMatchObject({ error: 'unauthenticated' });
    }
  });

  it('accepts the current secret among several signatures (rotation)', async () => {
    const body = incident('incident.triggered', acme.episodeId, 'PD-EVT-ROT');
    const text = JSON.stringify(body);
    const signature = `${pagerDutySignature(Buffer.from(text), 'the-retired-secret-0123456789')},${pagerDutySignature(Buffer.from(text), SECRETS.acme)}`;
    const response = await deliver(body, null, { text, signature });
    expect(response.status).toBe(200);
  });

  it("a tenant's secret cannot touch another tenant's episode: 200 ignored, as if it did not exist", async () => {
    const response = await deliver(incident('incident.resolved', acme.episodeId, 'PD-EVT-CROSS'), SECRETS.globex);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      outcome: 'ignored',
      reason: `no episode ${acme.episodeId} of this tenant`,
    });
    // …while globex's own episode is globex's to answer.
    const own = await deliver(incident('incident.acknowledged', globex.episodeId, 'PD-EVT-GLOBEX'), SECRETS.globex);
    expect(own.status).toBe(202);
    const answer = (await own.json()) as { id: string; keyId: string };
    expect(answer.keyId).toBe(globex.state.keyId);
    accepted.push(answer.id);
    expect((await published(answer.id)).tenant).toBe('globex');
  });

  it('2xx without acting for other event types, pings, and incidents TokenCircuit did not open', async () => {
    const ping = incidentDelivery(
      'pagey.ping',
      {},
      { id: 'PD-PING', resource_type: 'pagey', data: { message: 'Hello' } },
    );
    for (const body of [
      incident('incident.triggered', acme.episodeId, 'PD-EVT-TRIG'),
      incident('incident.annotated', acme.episodeId, 'PD-EVT-NOTE'),
      ping,
      incidentDelivery('incident.resolved', { incident_key: 'srv01/HTTP' }, { id: 'PD-EVT-OTHER' }),
      incident('incident.resolved', '00000000-0000-5000-8000-000000000000', 'PD-EVT-NOEP'),
    ]) {
      const response = await deliver(body, SECRETS.acme);
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ outcome: 'ignored', reason: expect.any(String) });
    }
  });

  it('400 naming the field for a signed body that is not JSON or not a delivery', async () => {
    const notJson = await deliver(null, SECRETS.acme, { text: '{"event":' });
    expect(notJson.status).toBe(400);
    expect(await notJson.json()).toMatchObject({ error: 'invalid_json' });
    const noId = await deliver(
      { event: { event_type: 'incident.resolved', resource_type: 'incident', occurred_at: 'x', data: {} } },
      SECRETS.acme,
    );
    expect(noId.status).toBe(400);
    expect(await noId.json()).toMatchObject({ error: 'invalid_field', field: 'event.id' });
  });

  it('published exactly the accepted resolutions, nothing for refused or ignored deliveries', async () => {
    const sentinel = requested('acme');
    expect((await api.as('acme', '/v1/events', { body: sentinel })).status).toBe(202);
    const received = await consumeUntil(api.topic, (messages) =>
      messages.some((m) => m.headers['ce_id']?.toString() === sentinel.id),
    );
    const resolutions = received
      .filter((m) => m.headers['ce_type']?.toString().includes('operator.resolution'))
      .map((m) => m.headers['ce_id']!.toString());
    // The redelivery was published again with the same id: at least once, deduplicated downstream by id.
    expect(new Set(resolutions)).toEqual(new Set(accepted));
  });
});

describe('POST /v1/integrations/pagerduty without TOKENCIRCUIT_PAGERDUTY_WEBHOOK_SECRETS', () => {
  let api: ApiHarness;
  beforeAll(async () => {
    api = await ApiHarness.start();
  });
  afterAll(async () => {
    await api?.close();
  });

  it('answers 404: the route is off, whatever the signature', async () => {
    const text = JSON.stringify(incidentDelivery('incident.resolved'));
    const response = await api.request(WEBHOOK, {
      rawBody: text,
      headers: { 'x-pagerduty-signature': pagerDutySignature(Buffer.from(text), SECRETS.acme) },
    });
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ error: 'not_found' });
  });
});

// Issue 28: the webhook was unmetered; a flood under one signing secret is refused before it is parsed or published.
describe('POST /v1/integrations/pagerduty is rate-limited per signing secret (real Kafka, real Postgres)', () => {
  let api: ApiHarness;
  beforeAll(async () => {
    api = await ApiHarness.start({
      pagerDutySecrets: `acme:${SECRETS.acme},globex:${SECRETS.globex}`,
      quotas: { API_PAGERDUTY_WEBHOOKS_PER_SECOND: 1, API_PAGERDUTY_WEBHOOK_BURST: 3 },
    });
  });
  afterAll(async () => api?.close());

  const deliver = (secret: string, eventId: string) => {
    const text = JSON.stringify(
      incidentDelivery('incident.acknowledged', { incident_key: 'no-such-episode' }, { id: eventId }),
    );
    return api.request(WEBHOOK, {
      rawBody: text,
      headers: { 'x-pagerduty-signature': pagerDutySignature(Buffer.from(text), secret) },
    });
  };

  it('answers 429 with Retry-After past the burst; another secret is still answered; an unsigned body stays 401', async () => {
    for (let i = 0; i < 3; i++) expect((await deliver(SECRETS.acme, `PD-FLOOD-${i}`)).status).toBe(200);
    const refused = await deliver(SECRETS.acme, 'PD-FLOOD-3');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(await refused.json()).toMatchObject({ error: 'rate_limited', quota: 'pagerduty_webhook' });
    expect((await deliver(SECRETS.globex, 'PD-OTHER-1')).status).toBe(200);
    expect((await deliver('not-a-configured-secret-0123456789', 'PD-FORGED')).status).toBe(401);
    api.now = new Date(api.now.getTime() + 1_000);
    expect((await deliver(SECRETS.acme, 'PD-FLOOD-4')).status).toBe(200);
    const metrics = await (await api.request('/metrics')).text();
    expect(metrics).toMatch(/^tokencircuit_api_pagerduty_webhooks_total\{outcome="rate_limited"\} 1$/m);
  });
});
