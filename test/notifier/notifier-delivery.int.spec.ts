import type { INestApplicationContext } from '@nestjs/common';
import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { NotifierDeadLetterSchema } from '@tokencircuit/contracts';
import { deliveryId, notificationText } from '@tokencircuit/notifier';
import { NotifierMetrics } from '@tokencircuit/notifier-service';
import type { EpisodeEventData } from '@tokencircuit/contracts';
import {
  consumeUntil,
  createTestDatabase,
  createTopic,
  randomTopic,
  waitFor,
  type TestDatabase,
} from '@tokencircuit/testing';
import {
  expectAlertmanagerAlerts,
  expectPagerDutyEvent,
  expectPersonFirst,
  expectSlackMessage,
} from '../../libs/notifier/src/spec-support/provider-shapes.js';
import { freshEpisode, publishSteps } from './support/episode-steps.js';
import { HttpReceiver } from './support/http-receiver.js';
import { notifierEnv, startNotifier, writeNotifyFile } from './support/notifier-harness.js';

const ROUTING_KEY = 'R0UT1NGKEY0123456789abcdefABCDEF';
const WEBHOOK_SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const WAIT = { maxWait: 60_000, interval: 50 };
/** What a person must read first for a step whose causing call is not stored (no arguments to show). */
const personFirst = (step: EpisodeEventData) => ({
  summary: notificationText(step, null).summary,
  action: step.artifact!.next_allowed_action,
  argument: null,
  secret: WEBHOOK_SECRET,
});

let db: TestDatabase;
const open: { context?: INestApplicationContext; receivers: HttpReceiver[] } = { receivers: [] };

beforeAll(async () => {
  db = await createTestDatabase('tc_notifier');
});
afterEach(async () => {
  await open.context?.close();
  open.context = undefined;
  for (const r of open.receivers.splice(0)) await r.stop();
});
afterAll(async () => {
  await db.drop();
});

async function receiver(...args: ConstructorParameters<typeof HttpReceiver>): Promise<HttpReceiver> {
  const r = await new HttpReceiver(...args).start();
  open.receivers.push(r);
  return r;
}

/** A notifier over fresh topics with the given sinks and routes; returns the topics. */
async function notifier(config: unknown, extra: Record<string, string> = {}) {
  const episodesTopic = await createTopic(randomTopic('notifier-episodes'), 3);
  const dlqTopic = await createTopic(randomTopic('notifier-dlq'), 1);
  open.context = await startNotifier(
    notifierEnv({
      databaseUrl: db.url,
      episodesTopic,
      dlqTopic,
      notifyFile: writeNotifyFile(config),
      extra: { PD_KEY: ROUTING_KEY, HOOK_SECRET: WEBHOOK_SECRET, ...extra },
    }),
  );
  return { episodesTopic, dlqTopic };
}

const rowsOf = async (episodeId: string) =>
  (
    await db.pool.query<{
      id: string;
      sink: string;
      transition: string;
      status: string;
      attempts: number;
      last_error: string | null;
    }>(
      'SELECT id, sink, transition, status, attempts, last_error FROM notifier_deliveries WHERE episode_id = $1 ORDER BY seq',
      [episodeId],
    )
  ).rows;

/**
 * True once the episode has exactly `count` delivery rows and every one is `done`: a wait over `every` alone
 * would hold before the first row is recorded.
 */
const deliveriesAre = async (episodeId: string, count: number, done: (status: string) => boolean) => {
  const rows = await rowsOf(episodeId);
  return rows.length === count && rows.every((r) => done(r.status));
};

/** Episode steps the running notifier has read and recorded (its transaction committed), redeliveries included. */
const stepsHandled = async () =>
  (await open.context!.get(NotifierMetrics, { strict: false }).steps.get()).values[0]?.value ?? 0;

describe('notifier against local HTTP receivers shaped like the providers', () => {
  it('PagerDuty: trigger → acknowledge → resolve on one dedup_key, in order, the routing key from the environment', async () => {
    const pd = await receiver(() => ({ status: 202, body: '{"status":"success","message":"Event processed"}' }));
    const { episodesTopic } = await notifier({
      sinks: { oncall: { type: 'pagerduty', routingKey: { env: 'PD_KEY' }, url: `${pd.url}/v2/enqueue` } },
      routes: [{ match: { level: ['page'] }, sinks: ['oncall'] }],
    });
    const e = freshEpisode('page');
    await publishSteps(episodesTopic, [e.triggered, e.acknowledged, e.resolved]);

    await waitFor(() => pd.requests.length >= 3, { ...WAIT, name: 'three PagerDuty events' });
    const events = pd.json<{ event_action: string; dedup_key: string; routing_key: string }>();
    expect(events.map((x) => x.event_action)).toEqual(['trigger', 'acknowledge', 'resolve']);
    expect(new Set(events.map((x) => x.dedup_key))).toEqual(new Set([e.triggered.episodeId]));
    expect(events.every((x) => x.routing_key === ROUTING_KEY)).toBe(true);
    expect(pd.requests.every((r) => r.path === '/v2/enqueue' && r.headers['content-type'] === 'application/json')).toBe(
      true,
    );
    expectPagerDutyEvent(events[0], 'trigger');
    // Issue 27: the one line, then the next action and the evidence (no causing call stored here: no arguments).
    expectPersonFirst('pagerduty', pd.requests[0]!.body, personFirst(e.triggered));
    expectPagerDutyEvent(events[1], 'acknowledge');
    expectPagerDutyEvent(events[2], 'resolve');
    await waitFor(() => deliveriesAre(e.triggered.episodeId, 3, (status) => status === 'sent'), {
      ...WAIT,
      name: 'three deliveries recorded as sent',
    });
    expect((await rowsOf(e.triggered.episodeId)).map((r) => r.transition)).toEqual([
      'triggered',
      'acknowledged',
      'resolved',
    ]);
  });

  it('a redelivered step is not paged twice, and a second intervention of the episode opens no second incident', async () => {
    const pd = await receiver(() => ({ status: 202 }));
    const { episodesTopic } = await notifier({
      sinks: { oncall: { type: 'pagerduty', routingKey: { env: 'PD_KEY' }, url: pd.url } },
      routes: [{ match: { level: ['block', 'page'] }, sinks: ['oncall'] }],
    });
    const e = freshEpisode('block');
    // The decision service republishes after a crash (same ids); Kafka redelivers after a rebalance.
    await publishSteps(episodesTopic, [e.triggered, e.triggered]);
    await publishSteps(episodesTopic, [e.triggered, e.escalated, e.escalated]);
    // All five records read and recorded (the three repeats included), then both deliveries sent: a repeat
    // paged twice would be a third request or row by then.
    await waitFor(async () => (await stepsHandled()) >= 5, { ...WAIT, name: 'the five published steps handled' });
    await waitFor(() => deliveriesAre(e.triggered.episodeId, 2, (status) => status === 'sent'), {
      ...WAIT,
      name: 'trigger and escalation sent',
    });
    expect(pd.json<{ event_action: string; dedup_key: string }>()).toEqual([
      expect.objectContaining({ event_action: 'trigger', dedup_key: e.triggered.episodeId }),
      expect.objectContaining({ event_action: 'trigger', dedup_key: e.triggered.episodeId }),
    ]);
    expect(pd.json<{ payload: { severity: string } }>().map((x) => x.payload.severity)).toEqual(['error', 'critical']);
    expect(await rowsOf(e.triggered.episodeId)).toHaveLength(2);
  });

  it('Slack: Block Kit with level, key fields, justification and link; a follow-up on resolution', async () => {
    const slack = await receiver(() => ({ status: 200, body: 'ok' }));
    // The URL is the credential: given to the notifier through the environment, as the README shows.
    const second = await notifier(
      {
        dashboardUrl: 'https://fleet.example.com',
        sinks: { chat: { type: 'slack', webhookUrl: { env: 'SLACK_URL' } } },
        routes: [{ match: { level: ['block'] }, sinks: ['chat'] }],
      },
      { SLACK_URL: `${slack.url}/services/T000/B000/XXXX` },
    );
    const e = freshEpisode('block');
    await publishSteps(second.episodesTopic, [e.triggered, e.resolved]);
    await waitFor(() => slack.requests.length >= 2, { ...WAIT, name: 'two Slack messages' });
    expect(slack.requests.map((r) => r.path)).toEqual(['/services/T000/B000/XXXX', '/services/T000/B000/XXXX']);
    const [opened, closed] = slack.json<{ text: string; blocks: { type: string }[] }>();
    expectSlackMessage(opened);
    expectSlackMessage(closed);
    const text = slack.requests[0]!.body;
    for (const expected of [
      'BLOCK',
      'permission',
      'sql.execute',
      'svc-billing',
      e.triggered.keyId,
      e.triggered.summary,
    ]) {
      expect(text).toContain(expected);
    }
    expect(opened!.blocks.some((b) => b.type === 'actions')).toBe(true);
    expectPersonFirst('slack', slack.requests[0]!.body, personFirst(e.triggered));
    expect(slack.requests[1]!.body).toContain('resolved');
  });

  it('webhook: signed per Standard Webhooks, verified by the reference implementation; a 500 then 200 is retried with the same id', async () => {
    const hook = await receiver((_, n) => (n === 0 ? { status: 500, body: 'busy' } : { status: 204 }));
    const { episodesTopic } = await notifier({
      sinks: { audit: { type: 'webhook', url: `${hook.url}/hooks/tc`, secret: { env: 'HOOK_SECRET' } } },
      routes: [{ sinks: ['audit'] }],
    });
    const e = freshEpisode('advise');
    await publishSteps(episodesTopic, [e.triggered]);
    await waitFor(() => hook.requests.length >= 2, { ...WAIT, name: 'a failed attempt and its retry' });
    const id = deliveryId(e.triggered.eventId, 'audit');
    for (const request of hook.requests) {
      expect(request.headers['webhook-id']).toBe(id);
      const verified = new Webhook(WEBHOOK_SECRET).verify(request.body, request.headers as Record<string, string>);
      expect(verified).toMatchObject({
        specversion: '1.0',
        id: e.triggered.eventId,
        type: 'dev.tokencircuit.episode.triggered.v1',
        data: { episodeId: e.triggered.episodeId },
      });
      expectPersonFirst('webhook', request.body, personFirst(e.triggered));
    }
    await waitFor(async () => (await rowsOf(e.triggered.episodeId))[0]?.status === 'sent', WAIT);
    expect(await rowsOf(e.triggered.episodeId)).toEqual([expect.objectContaining({ id, status: 'sent', attempts: 2 })]);
  });

  it('honours Retry-After on a 429: the retry comes no sooner than asked', async () => {
    const hook = await receiver((_, n) =>
      n === 0 ? { status: 429, headers: { 'retry-after': '2' } } : { status: 200 },
    );
    const { episodesTopic } = await notifier({
      sinks: { audit: { type: 'webhook', url: hook.url, secret: { env: 'HOOK_SECRET' } } },
      routes: [{ sinks: ['audit'] }],
    });
    await publishSteps(episodesTopic, [freshEpisode().triggered]);
    await waitFor(() => hook.requests.length >= 2, { ...WAIT, name: 'the retry after 429' });
    // A lower bound the notifier guarantees, not a speed claim.
    expect(hook.requests[1]!.at - hook.requests[0]!.at).toBeGreaterThanOrEqual(2_000 - 50);
  });

  it('a permanent 400 goes to the DLQ once, after one attempt, with no secret in it', async () => {
    const pd = await receiver(() => ({ status: 400, body: '{"status":"invalid event","errors":["bad routing key"]}' }));
    const { episodesTopic, dlqTopic } = await notifier({
      sinks: { oncall: { type: 'pagerduty', routingKey: { env: 'PD_KEY' }, url: pd.url } },
      routes: [{ sinks: ['oncall'] }],
    });
    const e = freshEpisode('page');
    await publishSteps(episodesTopic, [e.triggered]);
    const letters = await consumeUntil(dlqTopic, (r) => r.length >= 1, { name: 'the dead letter', maxWait: 60_000 });
    const letter = NotifierDeadLetterSchema.parse(JSON.parse(letters[0]!.value!.toString()));
    expect(letter).toMatchObject({
      deliveryId: deliveryId(e.triggered.eventId, 'oncall'),
      sink: 'oncall',
      sinkType: 'pagerduty',
      cause: 'permanent',
      lastStatus: 400,
      attempts: 1,
      episodeId: e.triggered.episodeId,
    });
    expect(letter.reason).toContain('HTTP 400');
    expect(letters[0]!.key!.toString()).toBe(letter.deliveryId);
    expect(letters[0]!.value!.toString()).not.toContain(ROUTING_KEY);
    expect(pd.requests).toHaveLength(1);
    expect(await rowsOf(e.triggered.episodeId)).toEqual([expect.objectContaining({ status: 'dead', attempts: 1 })]);
  });

  it('exhausted retries go to the DLQ after the last attempt', async () => {
    const hook = await receiver(() => ({ status: 503 }));
    const { episodesTopic, dlqTopic } = await notifier({
      sinks: { audit: { type: 'webhook', url: hook.url, secret: { env: 'HOOK_SECRET' } } },
      routes: [{ sinks: ['audit'] }],
    });
    await publishSteps(episodesTopic, [freshEpisode().triggered]);
    const letters = await consumeUntil(dlqTopic, (r) => r.length >= 1, { name: 'the dead letter', maxWait: 60_000 });
    expect(JSON.parse(letters[0]!.value!.toString())).toMatchObject({
      cause: 'exhausted',
      attempts: 3,
      lastStatus: 503,
    });
    expect(hook.requests).toHaveLength(3);
  });

  it('Alertmanager: fires with the key fields as labels and ends the alert on resolution', async () => {
    const am = await receiver(() => ({ status: 200 }));
    const { episodesTopic } = await notifier({
      sinks: { am: { type: 'alertmanager', url: am.url } },
      routes: [{ sinks: ['am'] }],
    });
    const e = freshEpisode('page');
    await publishSteps(episodesTopic, [e.triggered, e.acknowledged, e.resolved]);
    await waitFor(() => am.requests.length >= 2, { ...WAIT, name: 'firing and resolved alerts' });
    // Three rows: the acknowledgement's is skipped (Alertmanager has no acknowledge), the others sent.
    await waitFor(() => deliveriesAre(e.triggered.episodeId, 3, (status) => status !== 'pending'), {
      ...WAIT,
      name: 'three deliveries finished',
    });
    expect(am.requests.map((r) => r.path)).toEqual(['/api/v2/alerts', '/api/v2/alerts']);
    const [firing, ended] = am.json().map(expectAlertmanagerAlerts);
    expect(firing![0]!.labels).toMatchObject({
      alertname: 'TokenCircuitEpisode',
      key_id: e.triggered.keyId,
      level: 'page',
    });
    expect(Date.parse(firing![0]!.endsAt)).toBeGreaterThan(Date.parse(e.triggered.occurredAt));
    expectPersonFirst('alertmanager', am.requests[0]!.body, personFirst(e.triggered));
    expect(ended![0]!.labels).toEqual(firing![0]!.labels);
    expect(ended![0]!.endsAt).toBe(e.resolved.occurredAt);
    expect((await rowsOf(e.triggered.episodeId)).map((r) => r.status)).toEqual(['sent', 'skipped', 'sent']);
  });
});
