import type { PagerDutyWebhookDelivery } from '../pagerduty/webhook-delivery.js';

/** An episode id as the decision service makes them (UUIDv5), the incident key our notifier sends. */
export const EPISODE = '3b7e8f1a-52c4-5d2e-9f3a-1c6b0e4d7a92';

/**
 * A webhook v3 delivery shaped as PagerDuty documents it (developer.pagerduty.com, "Webhooks v3 overview",
 * incident.acknowledged example), with the members we do not read kept, so the schema is proven lenient.
 */
export function incidentDelivery(
  eventType: string,
  data: Record<string, unknown> = {},
  event: Record<string, unknown> = {},
): PagerDutyWebhookDelivery {
  return {
    event: {
      id: '01DEN1HFIYRHSVK6QWNKXBJX2N',
      event_type: eventType,
      resource_type: 'incident',
      occurred_at: '2026-01-05T10:04:00.000Z',
      agent: {
        html_url: 'https://acme.pagerduty.com/users/PLH1HKV',
        id: 'PLH1HKV',
        self: 'https://api.pagerduty.com/users/PLH1HKV',
        summary: 'Alice Oncall',
        type: 'user_reference',
      },
      client: null,
      data: {
        id: 'PGR0VU2',
        type: 'incident',
        self: 'https://api.pagerduty.com/incidents/PGR0VU2',
        html_url: 'https://acme.pagerduty.com/incidents/PGR0VU2',
        number: 42,
        status: eventType === 'incident.resolved' ? 'resolved' : 'acknowledged',
        incident_key: EPISODE,
        created_at: '2026-01-05T10:00:00.000Z',
        title: 'block: svc-reporting denied on finance.salaries',
        service: { id: 'PF9KMXH', summary: 'TokenCircuit', type: 'service_reference' },
        assignees: [],
        escalation_policy: { id: 'PJ0U1QX', type: 'escalation_policy_reference' },
        teams: [],
        priority: null,
        urgency: 'high',
        conference_bridge: null,
        resolve_reason: null,
        ...data,
      },
      ...event,
    },
  } as PagerDutyWebhookDelivery;
}
