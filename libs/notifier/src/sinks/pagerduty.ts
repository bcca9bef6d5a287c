import type { EpisodeEventData } from '@tokencircuit/contracts';
import type { ResolvedSink } from '../load-notify-config.js';
import type { BuildContext, OutboundRequest } from '../outbound-request.js';
import { cut, episodeLink, episodeTitle } from '../episode-link.js';

type PagerDutySink = Extract<ResolvedSink, { type: 'pagerduty' }>;

/**
 * PagerDuty Events API v2 (https://developer.pagerduty.com/docs/events-api-v2/overview/): the episode id is
 * the dedup_key, so every step of one episode lands on one incident — a repeated or escalated trigger
 * updates it, an operator's acknowledgement acknowledges it, the resolution resolves it.
 */
export function pagerDutyRequest(sink: PagerDutySink, step: EpisodeEventData, ctx: BuildContext): OutboundRequest {
  const headers = { 'content-type': 'application/json' };
  const dedup_key = step.episodeId;
  if (step.transition === 'acknowledged' || step.transition === 'resolved') {
    const event_action = step.transition === 'acknowledged' ? 'acknowledge' : 'resolve';
    return { url: sink.url, headers, body: JSON.stringify({ routing_key: sink.routingKey, event_action, dedup_key }) };
  }
  const link = episodeLink(step, ctx.dashboardUrl);
  const artifact = step.artifact;
  const body = {
    routing_key: sink.routingKey,
    event_action: 'trigger',
    dedup_key,
    payload: {
      // PagerDuty refuses a summary over 1024 characters.
      summary: cut(`${episodeTitle(step)}. ${step.summary}`, 1024),
      source: step.scope === 'run' && step.run ? `${step.tenant}/${step.run}` : step.tenant,
      severity: sink.severity[step.level],
      timestamp: step.occurredAt,
      component: step.tool,
      group: step.tenant,
      class: step.failureClass,
      custom_details: {
        tenant: step.tenant,
        key_id: step.keyId,
        scope: step.scope,
        run: step.run,
        agent: step.agent,
        principal: step.principal,
        tool: step.tool,
        failure_class: step.failureClass,
        level: step.level,
        previous_level: step.previousLevel,
        episode_id: step.episodeId,
        episode: step.episode,
        intervention_id: step.interventionId,
        justification: step.summary,
        next_allowed_action: artifact?.next_allowed_action ?? null,
        budget: artifact
          ? `${artifact.retry_count}/${artifact.budget}${artifact.budget_exhausted ? ' (exhausted)' : ''}`
          : null,
        resource: artifact?.resource_id ?? null,
        verifier: artifact?.verifier_required ?? null,
        sample_receipts: artifact?.sample_receipts ?? [],
        policy_version: artifact?.policy_version ?? null,
        opened_at: step.openedAt,
      },
    },
    client: 'TokenCircuit Fleet',
    ...(link ? { client_url: link, links: [{ href: link, text: 'Open in TokenCircuit' }] } : {}),
  };
  return { url: sink.url, headers, body: JSON.stringify(body) };
}
