import { truncateText } from '@tokencircuit/contracts';
import { PagerDutyIncidentSchema, type PagerDutyWebhookDelivery } from './webhook-delivery.js';

/** The two incident events that carry an on-call person's answer back to TokenCircuit. */
const ACTIONS = { 'incident.acknowledged': 'acknowledge', 'incident.resolved': 'resolve' } as const;

// Episode ids are UUIDv5 (ADR 0005); an incident key of any other shape was not opened by our notifier.
const EPISODE_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** What a delivery asks of TokenCircuit: act on one episode, or nothing (with the reason, for the answer). */
export type IncidentAction =
  | {
      readonly kind: 'act';
      readonly action: 'acknowledge' | 'resolve';
      /** PagerDuty's event id: a redelivery of the same event must yield the same resolution. */
      readonly deliveryId: string;
      readonly episodeId: string;
      readonly incidentId: string;
      /** Who acted, as PagerDuty names them (`pagerduty:<name>`), for the audit trail. */
      readonly by: string;
      readonly reason: string;
    }
  | { readonly kind: 'ignored'; readonly reason: string };

const ignored = (reason: string): IncidentAction => ({ kind: 'ignored', reason });

/**
 * Maps a verified delivery to an action on the episode whose id is the incident's key (the notifier sends
 * `dedup_key` = episode id, which PagerDuty keeps as `incident_key`). Every other event type, resource, or
 * incident is ignored: PagerDuty subscriptions often carry more than we act on, and must still get a 2xx.
 */
export function incidentActionOf(delivery: PagerDutyWebhookDelivery): IncidentAction {
  const { event } = delivery;
  const action = ACTIONS[event.event_type as keyof typeof ACTIONS];
  if (event.resource_type !== 'incident' || action === undefined) {
    return ignored(`${event.event_type} on ${event.resource_type} is not acted on`);
  }
  const incident = PagerDutyIncidentSchema.safeParse(event.data);
  if (!incident.success) return ignored('the event data is not an incident');
  const key = incident.data.incident_key?.trim().toLowerCase();
  if (!key) return ignored(`incident ${incident.data.id} has no incident key: it was not opened by TokenCircuit`);
  if (!EPISODE_ID.test(key)) {
    return ignored(`incident ${incident.data.id}: its incident key is not a TokenCircuit episode id`);
  }
  const who = event.agent?.summary?.trim() || event.agent?.id || 'PagerDuty';
  const name = incident.data.number ? `#${incident.data.number}` : incident.data.id;
  const link = incident.data.html_url ? ` ${incident.data.html_url}` : '';
  return {
    kind: 'act',
    action,
    deliveryId: event.id,
    episodeId: key,
    incidentId: incident.data.id,
    by: truncateText(`pagerduty:${who}`, 256),
    reason: `PagerDuty incident ${name} ${action === 'acknowledge' ? 'acknowledged' : 'resolved'} by ${who}${link}`,
  };
}
