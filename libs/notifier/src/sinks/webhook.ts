import { Webhook } from 'standardwebhooks';
import { episodeToCloudEvent, type EpisodeEventData } from '@tokencircuit/contracts';
import type { ResolvedSink } from '../load-notify-config.js';
import type { BuildContext, OutboundRequest } from '../outbound-request.js';

type WebhookSink = Extract<ResolvedSink, { type: 'webhook' }>;

/**
 * A Standard Webhooks delivery (https://www.standardwebhooks.com/): the body is the episode's CloudEvent
 * (structured mode), `webhook-id` the delivery's stable id (the same on every retry, so a receiver
 * dedupes), `webhook-timestamp` the send time and `webhook-signature` v1 HMAC-SHA256 by the reference
 * implementation.
 */
export function webhookRequest(sink: WebhookSink, step: EpisodeEventData, ctx: BuildContext): OutboundRequest {
  const body = JSON.stringify(episodeToCloudEvent(step));
  const signature = new Webhook(sink.secret).sign(ctx.deliveryId, ctx.now, body);
  return {
    url: sink.url,
    headers: {
      'content-type': 'application/cloudevents+json',
      'webhook-id': ctx.deliveryId,
      'webhook-timestamp': String(Math.floor(ctx.now.getTime() / 1000)),
      'webhook-signature': signature,
    },
    body,
  };
}
