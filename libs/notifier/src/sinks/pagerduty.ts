import type { EpisodeEventData } from '@tokencircuit/contracts';
import type { ResolvedSink } from '../load-notify-config.js';
import type { BuildContext, OutboundRequest } from '../outbound-request.js';
import { cut, episodeLink } from '../episode-link.js';
import { notificationText } from '../text/notification-text.js';
import { argumentsObject } from '../text/identifying-arguments.js';

type PagerDutySink = Extract<ResolvedSink, { type: 'pagerduty' }>;

/**
 * PagerDuty Events API v2 (https://developer.pagerduty.com/docs/events-api-v2/overview/): the episode id is
 * the dedup_key, so every step of one episode lands on one incident — a repeated or escalated trigger
 * updates it, an operator's acknowledgement acknowledges it, the resolution resolves it. The summary is the
 * one line of notificationText; custom_details hold the next allowed action, the identifying arguments and
 * the evidence, in that order.
 */
export function pagerDutyRequest(sink: PagerDutySink, step: EpisodeEventData, ctx: BuildContext): OutboundRequest {
  const headers = { 'content-type': 'application/json' };
  const dedup_key = step.episodeId;
  if (step.transition === 'acknowledged' || step.transition === 'resolved') {
    const event_action = step.transition === 'acknowledged' ? 'acknowledge' : 'resolve';
    return { url: sink.url, headers, body: JSON.stringify({ routing_key: sink.routingKey, event_action, dedup_key }) };
  }
  const link = episodeLink(step, ctx.dashboardUrl);
  const text = notificationText(step, ctx.arguments ?? null);
  const body = {
    routing_key: sink.routingKey,
    event_action: 'trigger',
    dedup_key,
    payload: {
      // One line a person acts on (≤ 120 characters; PagerDuty's own limit is 1,024).
      summary: text.summary,
      source: step.scope === 'run' && step.run ? `${step.tenant}/${step.run}` : step.tenant,
      severity: sink.severity[step.level],
      timestamp: step.occurredAt,
      component: step.tool,
      group: step.tenant,
      class: step.failureClass,
      // In the order a person needs them: what to do, on what exactly, then the evidence.
      custom_details: {
        next_allowed_action: text.nextAction.action,
        what_to_do: text.nextAction.instruction,
        arguments: argumentsObject(text.arguments),
        evidence: Object.fromEntries(text.evidence.map((item) => [item.label, cut(item.value, 2000)])),
        key_id: step.keyId,
        episode_id: step.episodeId,
      },
    },
    client: 'TokenCircuit Fleet',
    ...(link ? { client_url: link, links: [{ href: link, text: 'Open in TokenCircuit' }] } : {}),
  };
  return { url: sink.url, headers, body: JSON.stringify(body) };
}
