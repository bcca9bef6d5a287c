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

/** What a person must read first in any sink's request, and what must never be in it. */
export interface PersonFirst {
  readonly summary: string;
  readonly action: string;
  /** One identifying argument that must be shown: [name, value]; null when the call's arguments are unknown. */
  readonly argument: readonly [string, string] | null;
  /** A secret among the call's arguments that must not appear anywhere. */
  readonly secret: string;
}

/**
 * Issue 27: every sink leads with the one-line summary (≤ 120 characters), then the next allowed action,
 * then the identifying arguments (redacted), then the evidence.
 */
export function expectPersonFirst(
  sinkType: 'pagerduty' | 'slack' | 'webhook' | 'alertmanager',
  body: string,
  want: PersonFirst,
): void {
  expect(body).not.toContain(want.secret);
  expect(want.summary.length).toBeLessThanOrEqual(120);
  const parsed = JSON.parse(body) as Record<string, unknown>;
  const [name, value] = want.argument ?? ['', ''];
  switch (sinkType) {
    case 'pagerduty': {
      const payload = parsed.payload as { summary: string; custom_details: Record<string, unknown> };
      expect(payload.summary).toBe(want.summary);
      expect(Object.keys(payload.custom_details).slice(0, 4)).toEqual([
        'next_allowed_action',
        'what_to_do',
        'arguments',
        'evidence',
      ]);
      expect(payload.custom_details.next_allowed_action).toBe(want.action);
      if (want.argument) expect((payload.custom_details.arguments as Record<string, string>)[name]).toBe(value);
      else expect(payload.custom_details.arguments).toEqual({});
      expect(payload.custom_details.evidence).toMatchObject({ Why: expect.any(String) });
      return;
    }
    case 'slack': {
      expect(parsed.text).toBe(want.summary);
      const blocks = parsed.blocks as { type: string; text?: { text: string }; fields?: { text: string }[] }[];
      expect(blocks[0]!.type).toBe('header');
      expect(blocks[0]!.text!.text).toContain(want.summary.slice(0, 100));
      const flat = blocks.map((b) => [b.text?.text ?? '', ...(b.fields ?? []).map((f) => f.text)].join('\n'));
      const at = (needle: string) => flat.findIndex((t) => t.includes(needle));
      expect(at(`\`${want.action}\``)).toBe(1);
      expect(at('*Arguments*')).toBeGreaterThan(1);
      if (want.argument) expect(at(`*${name}*\n\`${value}\``)).toBeGreaterThan(at('*Arguments*'));
      expect(at('*Evidence*')).toBeGreaterThan(want.argument ? at(`*${name}*`) : at('*Arguments*'));
      return;
    }
    case 'webhook': {
      const keys = Object.keys(parsed);
      expect(parsed).toMatchObject({ summary: want.summary, nextaction: want.action });
      expect(keys.indexOf('summary')).toBeLessThan(keys.indexOf('nextaction'));
      expect(keys.indexOf('nextaction')).toBeLessThan(keys.indexOf('data'));
      if (want.argument) {
        expect(parsed.arguments).toContain(`${name}=${value}`);
        expect(keys.indexOf('nextaction')).toBeLessThan(keys.indexOf('arguments'));
        expect(keys.indexOf('arguments')).toBeLessThan(keys.indexOf('data'));
      } else expect(parsed.arguments).toBeUndefined();
      return;
    }
    case 'alertmanager': {
      const alerts = parsed as unknown as { annotations: Record<string, string> }[];
      for (const { annotations } of alerts) {
        const order = [
          'summary',
          'next_allowed_action',
          'what_to_do',
          ...(want.argument ? ['arguments'] : []),
          'description',
        ];
        expect(Object.keys(annotations).slice(0, order.length)).toEqual(order);
        expect(annotations.summary).toBe(want.summary);
        expect(annotations.next_allowed_action).toBe(want.action);
        if (want.argument) expect(annotations.arguments).toContain(`${name}=${value}`);
      }
      return;
    }
  }
}
