import type { EpisodeEventData } from '@tokencircuit/contracts';
import type { ResolvedSink } from './load-notify-config.js';
import type { BuildContext, OutboundRequest } from './outbound-request.js';
import { alertmanagerRequest } from './sinks/alertmanager.js';
import { pagerDutyRequest } from './sinks/pagerduty.js';
import { slackRequest } from './sinks/slack.js';
import { webhookRequest } from './sinks/webhook.js';

/** The request one sink needs for one episode step; null when that sink has nothing to say about the step. */
export function buildRequest(sink: ResolvedSink, step: EpisodeEventData, ctx: BuildContext): OutboundRequest | null {
  switch (sink.type) {
    case 'pagerduty':
      return pagerDutyRequest(sink, step, ctx);
    case 'slack':
      return slackRequest(sink, step, ctx);
    case 'webhook':
      return webhookRequest(sink, step, ctx);
    case 'alertmanager':
      return alertmanagerRequest(sink, step, ctx);
    default: {
      const unexpected: never = sink;
      throw new TypeError(`unexpected sink ${JSON.stringify(unexpected)}`);
    }
  }
}
