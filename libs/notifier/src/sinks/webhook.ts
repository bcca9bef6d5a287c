import { Webhook } from 'standardwebhooks';
import { episodeToCloudEvent, type EpisodeEventData } from '@tokencircuit/contracts';
import type { ResolvedSink } from '../load-notify-config.js';
import type { BuildContext, OutboundRequest } from '../outbound-request.js';
import { argumentsLine } from '../text/identifying-arguments.js';
import { notificationText } from '../text/notification-text.js';

type WebhookSink = Extract<ResolvedSink, { type: 'webhook' }>;

/**
 * A Standard Webhooks delivery (https://www.standardwebhooks.com/): the body is the episode's CloudEvent
 * (structured mode) with the person's words as extension attributes (summary, nextaction, instruction,
 * arguments), `webhook-id` the delivery's stable id (the same on every retry, so a receiver
 * dedupes), `webhook-timestamp` the send time and `webhook-signature` v1 HMAC-SHA256 by the reference
 * implementation.
 */
export function webhookRequest(sink: WebhookSink, step: EpisodeEventData, ctx: BuildContext): OutboundRequest {
  const text = notificationText(step, ctx.arguments ?? null);
  const { data, ...attributes } = episodeToCloudEvent(step);
  // Extension attributes (CloudEvents: lower-case names, scalar values) before `data`, the evidence:
  // the summary line, the next allowed action, the identifying arguments.
  const body = JSON.stringify({
    ...attributes,
    summary: text.summary,
    nextaction: text.nextAction.action,
    instruction: text.nextAction.instruction,
    ...(text.arguments.shown.length > 0 ? { arguments: argumentsLine(text.arguments) } : {}),
    data,
  });
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
