import { Webhook } from 'standardwebhooks';
import { cloudEventToEpisode, CloudEventSchema, type CloudEvent } from '@tokencircuit/contracts';
import { describe, expect, it } from 'vitest';
import { buildRequest } from './build-request.js';
import { loadNotifyConfig, type ResolvedSink } from './load-notify-config.js';
import {
  acknowledged,
  escalated,
  refundArguments,
  refundPage,
  resolved,
  triggered,
} from './spec-support/sample-steps.js';
import {
  expectAlertmanagerAlerts,
  expectPagerDutyEvent,
  expectPersonFirst,
  expectSlackMessage,
} from './spec-support/provider-shapes.js';

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const config = loadNotifyConfig(
  {
    dashboardUrl: 'https://fleet.example.com/',
    sinks: {
      pd: { type: 'pagerduty', routingKey: 'R0UT1NG', url: 'https://pd.example/v2/enqueue' },
      slack: { type: 'slack', webhookUrl: 'https://hooks.slack.example/services/T/B/X' },
      hook: { type: 'webhook', url: 'https://receiver.example/hooks', secret: SECRET },
      am: { type: 'alertmanager', url: 'http://alertmanager:9093/' },
    },
    routes: [{ sinks: ['pd', 'slack', 'hook', 'am'] }],
  },
  {},
);
const sink = (name: string): ResolvedSink => config.sinks.get(name)!;
const ctx = { deliveryId: 'd-1', now: new Date('2026-12-01T10:00:05.000Z'), dashboardUrl: config.dashboardUrl };
const json = (body: string | undefined) => JSON.parse(body ?? 'null') as Record<string, unknown>;

describe('PagerDuty Events API v2', () => {
  it('triggers, acknowledges and resolves one incident: the dedup_key is the episode', () => {
    const steps = [triggered, escalated, acknowledged, resolved] as const;
    const bodies = steps.map((step) => json(buildRequest(sink('pd'), step, ctx)?.body));
    expect(bodies.map((b) => b.event_action)).toEqual(['trigger', 'trigger', 'acknowledge', 'resolve']);
    expect(new Set(bodies.map((b) => b.dedup_key))).toEqual(new Set([triggered.episodeId]));
    expectPagerDutyEvent(bodies[0], 'trigger');
    expectPagerDutyEvent(bodies[2], 'acknowledge');
    expectPagerDutyEvent(bodies[3], 'resolve');
  });

  it('maps the level to a severity and carries the artifact essentials and a link', () => {
    const request = buildRequest(sink('pd'), escalated, ctx)!;
    expect(request.url).toBe('https://pd.example/v2/enqueue');
    const body = json(request.body) as { payload: Record<string, unknown>; links: unknown[] };
    expect(body.payload).toMatchObject({
      severity: 'critical',
      component: 'sql.execute',
      group: 'acme',
      class: 'permission',
      custom_details: {
        next_allowed_action: 'stop_request_authorization',
        key_id: 'k-3f9a',
        evidence: {
          Principal: 'svc-billing',
          Why: triggered.summary,
          Budget: '0 of 0 retries used (exhausted)',
        },
      },
    });
    expect(body.links).toEqual([
      {
        href: `https://fleet.example.com/dashboard/#/interventions/${escalated.interventionId}`,
        text: 'Open in TokenCircuit',
      },
    ]);
    expect(json(buildRequest(sink('pd'), triggered, ctx)!.body)).toMatchObject({ payload: { severity: 'error' } });
  });

  it('cuts a summary PagerDuty would refuse', () => {
    const long = { ...triggered, summary: 'x'.repeat(5000) };
    expectPagerDutyEvent(json(buildRequest(sink('pd'), long, ctx)!.body), 'trigger');
  });
});

describe('Slack incoming webhook', () => {
  it('posts Block Kit with the level, key fields, justification and a link, and a follow-up on resolution', () => {
    for (const step of [triggered, escalated, acknowledged, resolved]) {
      const request = buildRequest(sink('slack'), step, ctx)!;
      expect(request.url).toBe('https://hooks.slack.example/services/T/B/X');
      expectSlackMessage(json(request.body));
    }
    const text = buildRequest(sink('slack'), escalated, ctx)!.body;
    for (const expected of [
      'block → page',
      'permission',
      'sql.execute',
      'svc-billing',
      triggered.summary,
      'https://fleet.example.com/dashboard/',
    ]) {
      expect(text).toContain(expected);
    }
    expect(buildRequest(sink('slack'), resolved, ctx)!.body).toContain('resolved');
    expect(buildRequest(sink('slack'), resolved, ctx)!.body).toContain('operator alice');
  });

  it('stays within Block Kit limits for huge values', () => {
    const huge = { ...triggered, summary: 'y'.repeat(10_000), tool: 't'.repeat(3000), principal: 'p'.repeat(3000) };
    expectSlackMessage(json(buildRequest(sink('slack'), huge, ctx)!.body));
  });
});

describe('Standard Webhooks', () => {
  it('signs the CloudEvent so the reference verifier accepts it, with the delivery id as webhook-id', () => {
    const request = buildRequest(sink('hook'), triggered, { ...ctx, now: new Date() })!;
    expect(request.headers['webhook-id']).toBe('d-1');
    const verified = new Webhook(SECRET).verify(request.body, { ...request.headers });
    expect(verified).toMatchObject({
      id: triggered.eventId,
      subject: triggered.episodeId,
      data: { transition: 'triggered' },
    });
  });

  it('is refused by the verifier when a byte changes or the secret differs', () => {
    const request = buildRequest(sink('hook'), triggered, { ...ctx, now: new Date() })!;
    expect(() => new Webhook(SECRET).verify(request.body.replace('acme', 'acmf'), { ...request.headers })).toThrow();
    expect(() =>
      new Webhook('whsec_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA').verify(request.body, { ...request.headers }),
    ).toThrow();
  });
});

describe('Alertmanager /api/v2/alerts', () => {
  it('fires with the key fields as labels, swaps alerts on escalation, ends on resolution, skips acknowledgement', () => {
    const fired = expectAlertmanagerAlerts(json(buildRequest(sink('am'), triggered, ctx)!.body));
    expect(buildRequest(sink('am'), triggered, ctx)!.url).toBe('http://alertmanager:9093/api/v2/alerts');
    expect(fired).toHaveLength(1);
    expect(fired[0]!.labels).toMatchObject({
      level: 'block',
      tenant: 'acme',
      key_id: 'k-3f9a',
      tool: 'sql.execute',
      principal: 'svc-billing',
    });
    expect(fired[0]!.endsAt).toBe('2026-12-02T10:00:00.000Z');

    const swapped = expectAlertmanagerAlerts(json(buildRequest(sink('am'), escalated, ctx)!.body));
    expect(swapped.map((a) => [a.labels.level, a.endsAt])).toEqual([
      ['block', escalated.occurredAt],
      ['page', '2026-12-02T10:00:00.000Z'],
    ]);
    const ended = expectAlertmanagerAlerts(json(buildRequest(sink('am'), resolved, ctx)!.body));
    expect(ended.map((a) => [a.labels.level, a.endsAt])).toEqual([['page', resolved.occurredAt]]);
    expect(buildRequest(sink('am'), acknowledged, ctx)).toBeNull();
  });
});

describe('every sink reads like a page for a person (issue 27 point 6)', () => {
  const refundCtx = { ...ctx, arguments: refundArguments };
  const want = {
    summary:
      'support-agent: write of unknown outcome (payments.refund on payments-api:/v1/refunds) — check whether the write happened',
    action: 'reconcile_before_retry',
    argument: ['charge_id', 'ch_3PqK8a2eZvKYlo2C1x0'],
    secret: refundArguments.api_key,
  } as const;

  it.each([
    ['pd', 'pagerduty'],
    ['slack', 'slack'],
    ['hook', 'webhook'],
    ['am', 'alertmanager'],
  ] as const)('%s: summary, next allowed action, identifying arguments, evidence', (name, type) => {
    const request = buildRequest(sink(name), refundPage, refundCtx)!;
    expectPersonFirst(type, request.body, want);
  });

  it('the 851-character justification stays evidence: it is never the summary', () => {
    const body = json(buildRequest(sink('pd'), refundPage, refundCtx)!.body) as {
      payload: { summary: string; custom_details: { evidence: Record<string, string> } };
    };
    expect(body.payload.summary).not.toContain('seb=');
    expect(body.payload.custom_details.evidence.Why).toBe(refundPage.summary);
    expectSlackMessage(json(buildRequest(sink('slack'), refundPage, refundCtx)!.body));
    expectAlertmanagerAlerts(json(buildRequest(sink('am'), refundPage, refundCtx)!.body));
  });

  it('the webhook stays a valid, signed CloudEvent that decodes to the same episode step', () => {
    const request = buildRequest(sink('hook'), refundPage, { ...refundCtx, now: new Date() })!;
    const verified = new Webhook(SECRET).verify(request.body, { ...request.headers }) as Record<string, unknown>;
    expect(cloudEventToEpisode(CloudEventSchema.parse(verified) as CloudEvent)).toEqual(refundPage);
  });
});
