import { z } from 'zod';

/**
 * A PagerDuty webhook v3 delivery, as far as we read it (developer.pagerduty.com, "Webhooks v3 overview":
 * `{ "event": { id, event_type, resource_type, occurred_at, agent, client, data } }`). Members we do not read
 * are allowed and ignored: PagerDuty adds fields without a version change.
 */
export const PagerDutyWebhookDeliverySchema = z.object({
  event: z.looseObject({
    /** Unique per event; a redelivery carries the same id (our resolution id derives from it). */
    id: z.string().min(1).max(256),
    /** `incident.acknowledged`, `incident.resolved`, `incident.triggered`, …, `pagey.ping`. */
    event_type: z.string().min(1).max(128),
    resource_type: z.string().min(1).max(128),
    occurred_at: z.string().min(1).max(64),
    /** Who did it: a `user_reference` for a person, a `service_reference` or null for automation. */
    agent: z
      .looseObject({
        id: z.string().max(256).optional(),
        summary: z.string().max(1024).nullish(),
        type: z.string().max(128).optional(),
      })
      .nullish(),
    /** The incident for incident events; other shapes for other resources, read only after the type check. */
    data: z.looseObject({}),
  }),
});
export type PagerDutyWebhookDelivery = z.infer<typeof PagerDutyWebhookDeliverySchema>;

/** The incident members of `event.data` we use (PagerDuty's incident object, webhook v3 flavour). */
export const PagerDutyIncidentSchema = z.looseObject({
  id: z.string().min(1).max(256),
  number: z.number().int().nullish(),
  html_url: z.string().max(2048).nullish(),
  title: z.string().max(4096).nullish(),
  /** The Events API v2 `dedup_key` the incident was opened with: our notifier sends the episode id. */
  incident_key: z.string().max(1024).nullish(),
});
export type PagerDutyIncident = z.infer<typeof PagerDutyIncidentSchema>;
