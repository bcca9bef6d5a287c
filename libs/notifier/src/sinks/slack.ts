import type { EpisodeEventData } from '@tokencircuit/contracts';
import type { ResolvedSink } from '../load-notify-config.js';
import type { BuildContext, OutboundRequest } from '../outbound-request.js';
import { cut, episodeLink, episodeTitle } from '../episode-link.js';

type SlackSink = Extract<ResolvedSink, { type: 'slack' }>;

const EMOJI: Record<EpisodeEventData['transition'], string> = {
  triggered: ':rotating_light:',
  escalated: ':arrow_double_up:',
  acknowledged: ':eyes:',
  resolved: ':white_check_mark:',
};

const field = (label: string, value: string | null) => ({
  type: 'mrkdwn',
  // Slack: a field's text is at most 2000 characters.
  text: cut(`*${label}*\n${value === null || value === '' ? '—' : value}`, 2000),
});

/**
 * Slack incoming webhook with Block Kit (https://api.slack.com/messaging/webhooks,
 * https://api.slack.com/reference/block-kit/blocks): a header, the key's fields, the justification and a
 * link. Incoming webhooks cannot edit an earlier message, so acknowledgement and resolution post a
 * follow-up naming the same episode.
 */
export function slackRequest(sink: SlackSink, step: EpisodeEventData, ctx: BuildContext): OutboundRequest {
  const link = episodeLink(step, ctx.dashboardUrl);
  const title = episodeTitle(step);
  const actor = step.actor ? `${step.actor.kind}${step.actor.by ? ` ${step.actor.by}` : ''}` : null;
  const blocks: unknown[] = [
    // A header's plain_text is at most 150 characters.
    { type: 'header', text: { type: 'plain_text', text: cut(`${EMOJI[step.transition]} ${title}`, 150), emoji: true } },
    {
      type: 'section',
      fields: [
        field('Level', step.previousLevel ? `${step.previousLevel} → ${step.level}` : step.level),
        field('Class', step.failureClass),
        field('Tool', step.tool),
        field('Principal', step.principal),
        field('Tenant', step.tenant),
        field(step.scope === 'run' ? 'Run' : 'Scope', step.scope === 'run' ? step.run : 'fleet'),
        field('Key', `\`${step.keyId}\``),
        field('Episode', `${step.episode} (\`${step.episodeId}\`)`),
      ],
    },
    // A section's text is at most 3000 characters.
    { type: 'section', text: { type: 'mrkdwn', text: cut(`*Justification*\n${step.summary}`, 3000) } },
  ];
  const context = [
    `${step.transition} at ${step.occurredAt}`,
    ...(actor ? [`by ${actor}`] : []),
    ...(step.actor?.reason ? [step.actor.reason] : []),
  ];
  blocks.push({ type: 'context', elements: [{ type: 'mrkdwn', text: cut(context.join(' · '), 3000) }] });
  if (link) {
    blocks.push({
      type: 'actions',
      elements: [
        { type: 'button', text: { type: 'plain_text', text: 'Open in TokenCircuit' }, url: link, action_id: 'open' },
      ],
    });
  }
  // `text` is the notification's fallback (and what screen readers say).
  const body = { text: cut(`${title}. ${step.summary}`, 3000), blocks };
  return { url: sink.webhookUrl, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) };
}
