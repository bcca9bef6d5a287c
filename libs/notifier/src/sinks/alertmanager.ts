import type { EpisodeEventData } from '@tokencircuit/contracts';
import type { ResolvedSink } from '../load-notify-config.js';
import type { BuildContext, OutboundRequest } from '../outbound-request.js';
import { cut, episodeLink } from '../episode-link.js';
import { argumentsLine } from '../text/identifying-arguments.js';
import { notificationText } from '../text/notification-text.js';

type AlertmanagerSink = Extract<ResolvedSink, { type: 'alertmanager' }>;

const HOUR_MS = 3_600_000;

/**
 * Alertmanager's POST /api/v2/alerts (postableAlerts: labels, annotations, startsAt, endsAt, generatorURL).
 * Alertmanager tells alerts apart by their label set, so the labels are the key's fields plus the level:
 * an escalation resolves the quieter alert and fires the louder one; the resolution sends the alert with
 * endsAt = when it was resolved. Acknowledgement has no Alertmanager counterpart (silences are a person's
 * choice): it is not sent.
 */
export function alertmanagerRequest(
  sink: AlertmanagerSink,
  step: EpisodeEventData,
  ctx: BuildContext,
): OutboundRequest | null {
  if (step.transition === 'acknowledged') return null;
  const link = episodeLink(step, ctx.dashboardUrl);
  const text = notificationText(step, ctx.arguments ?? null);
  const alert = (level: EpisodeEventData['level'], endsAt: string) => ({
    labels: {
      alertname: 'TokenCircuitEpisode',
      severity: level,
      level,
      tenant: step.tenant,
      key_id: step.keyId,
      episode_id: step.episodeId,
      failure_class: step.failureClass,
      tool: step.tool,
      scope: step.scope,
      ...(step.principal ? { principal: step.principal } : {}),
      ...(step.run ? { run: step.run } : {}),
    },
    // Annotations in the order a person needs them (summary and description are Alertmanager's conventions).
    annotations: {
      summary: text.summary,
      next_allowed_action: text.nextAction.action,
      what_to_do: text.nextAction.instruction,
      ...(text.arguments.shown.length > 0 ? { arguments: argumentsLine(text.arguments) } : {}),
      description: cut(text.evidence.map((e) => `${e.label}: ${e.value}`).join('\n'), 8192),
      episode: String(step.episode),
      ...(step.interventionId ? { intervention_id: step.interventionId } : {}),
      ...(step.actor ? { resolved_by: `${step.actor.kind}${step.actor.by ? ` ${step.actor.by}` : ''}` } : {}),
    },
    startsAt: step.openedAt,
    endsAt,
    ...(link ? { generatorURL: link } : {}),
  });
  const openUntil = new Date(Date.parse(step.openedAt) + sink.activeHours * HOUR_MS).toISOString();
  const alerts =
    step.transition === 'resolved'
      ? [alert(step.level, step.occurredAt)]
      : step.transition === 'escalated' && step.previousLevel
        ? [alert(step.previousLevel, step.occurredAt), alert(step.level, openUntil)]
        : [alert(step.level, openUntil)];
  return {
    url: `${sink.url.replace(/\/+$/, '')}/api/v2/alerts`,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(alerts),
  };
}
