import { z } from 'zod';
import { EpisodeEventDataSchema } from './episode.js';

/**
 * Published to tokencircuit.notifier.dlq.v1 when a notification could not be delivered: a permanent
 * refusal (4xx) or the last attempt spent. Keyed by the delivery id (stable: a republished letter is the
 * same letter). It carries the episode step, never the request: no routing key, webhook URL or signing
 * secret leaves the notifier.
 */
export const NotifierDeadLetterSchema = z.object({
  /** UUIDv5 of the step's event id and the sink name: the notifier_deliveries row and the webhook-id. */
  deliveryId: z.string(),
  sink: z.string(),
  sinkType: z.enum(['pagerduty', 'slack', 'webhook', 'alertmanager']),
  tenant: z.string(),
  eventId: z.string(),
  episodeId: z.string(),
  transition: z.string(),
  attempts: z.number().int().nonnegative(),
  /** The last HTTP status, or null when no response came (connection refused, timeout). */
  lastStatus: z.number().int().nullable(),
  /** permanent: the receiver refused the request; exhausted: every attempt failed. */
  cause: z.enum(['permanent', 'exhausted']),
  /** What the last attempt came to, secrets redacted. */
  reason: z.string(),
  deadAt: z.iso.datetime({ offset: true }),
  step: EpisodeEventDataSchema,
});
export type NotifierDeadLetter = z.infer<typeof NotifierDeadLetterSchema>;
