import { expect } from 'vitest';

/**
 * The providers' documented request shapes, as assertions the unit specs and the receiver tests share.
 * PagerDuty: https://developer.pagerduty.com/api-reference/368ae3d938c9e-send-an-event-to-pager-duty
 * Slack: https://api.slack.com/reference/block-kit/blocks
 * Alertmanager: https://github.com/prometheus/alertmanager/blob/main/api/v2/openapi.yaml (postableAlerts)
 */
export function expectPagerDutyEvent(body: unknown, action: 'trigger' | 'acknowledge' | 'resolve'): void {
  const event = body as Record<string, unknown>;
  expect(event).toMatchObject({ routing_key: expect.any(String), event_action: action, dedup_key: expect.any(String) });
  expect((event.dedup_key as string).length).toBeLessThanOrEqual(255);
  if (action !== 'trigger') {
    expect(Object.keys(event).sort()).toEqual(['dedup_key', 'event_action', 'routing_key']);
    return;
  }
  const payload = event.payload as Record<string, unknown>;
  expect(payload).toMatchObject({ summary: expect.any(String), source: expect.any(String) });
  expect((payload.summary as string).length).toBeLessThanOrEqual(1024);
  expect(['critical', 'error', 'warning', 'info']).toContain(payload.severity);
  if (payload.timestamp !== undefined) expect(Number.isNaN(Date.parse(payload.timestamp as string))).toBe(false);
  for (const name of ['component', 'group', 'class']) expect(typeof payload[name]).toBe('string');
  expect(typeof payload.custom_details).toBe('object');
  for (const link of (event.links as { href: string; text: string }[] | undefined) ?? []) {
    expect(link).toEqual({ href: expect.stringMatching(/^https?:\/\//), text: expect.any(String) });
  }
}

export function expectSlackMessage(body: unknown): void {
  const message = body as { text: string; blocks: Record<string, unknown>[] };
  expect(typeof message.text).toBe('string');
  expect(message.blocks.length).toBeGreaterThan(0);
  expect(message.blocks.length).toBeLessThanOrEqual(50);
  for (const block of message.blocks) {
    switch (block.type) {
      case 'header': {
        const text = block.text as { type: string; text: string };
        expect(text.type).toBe('plain_text');
        expect(text.text.length).toBeLessThanOrEqual(150);
        break;
      }
      case 'section': {
        const fields = (block.fields as { type: string; text: string }[] | undefined) ?? [];
        expect(fields.length).toBeLessThanOrEqual(10);
        for (const f of fields) expect(f.text.length).toBeLessThanOrEqual(2000);
        const text = block.text as { type: string; text: string } | undefined;
        if (text) expect(text.text.length).toBeLessThanOrEqual(3000);
        expect(fields.length > 0 || text !== undefined).toBe(true);
        break;
      }
      case 'context':
        expect((block.elements as unknown[]).length).toBeGreaterThan(0);
        break;
      case 'actions':
        for (const e of block.elements as { type: string; url?: string }[]) {
          expect(e.type).toBe('button');
          expect(e.url).toMatch(/^https?:\/\//);
        }
        break;
      default:
        throw new Error(`unexpected block type ${String(block.type)}`);
    }
  }
}

export function expectAlertmanagerAlerts(body: unknown): { labels: Record<string, string>; endsAt: string }[] {
  const alerts = body as {
    labels: Record<string, unknown>;
    annotations: Record<string, unknown>;
    startsAt: string;
    endsAt: string;
  }[];
  expect(Array.isArray(alerts)).toBe(true);
  for (const alert of alerts) {
    expect(typeof alert.labels.alertname).toBe('string');
    for (const value of [...Object.values(alert.labels), ...Object.values(alert.annotations)])
      expect(typeof value).toBe('string');
    for (const name of Object.keys(alert.labels)) expect(name).toMatch(/^[a-zA-Z_][a-zA-Z0-9_]*$/);
    expect(Number.isNaN(Date.parse(alert.startsAt))).toBe(false);
    expect(Number.isNaN(Date.parse(alert.endsAt))).toBe(false);
  }
  return alerts as { labels: Record<string, string>; endsAt: string }[];
}
