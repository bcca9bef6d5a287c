import type { EpisodeEventData } from '@tokencircuit/contracts';
import type { ResolvedSink } from '../load-notify-config.js';
import type { BuildContext, OutboundRequest } from '../outbound-request.js';
import { cut, episodeLink } from '../episode-link.js';
import { notificationText } from '../text/notification-text.js';

type SlackSink = Extract<ResolvedSink, { type: 'slack' }>;

const EMOJI: Record<EpisodeEventData['transition'], string> = {
  triggered: ':rotating_light:',
  escalated: ':arrow_double_up:',
  acknowledged: ':eyes:',
  resolved: ':white_check_mark:',
};

// Slack: a field's text is at most 2000 characters, a section's text 3000, a header's 150, 10 fields a section.
const field = (label: string, value: string) => ({ type: 'mrkdwn', text: cut(`*${label}*\n${value}`, 2000) });
const section = (text: string) => ({ type: 'section', text: { type: 'mrkdwn', text: cut(text, 3000) } });
// Evidence shown as fields (short facts); the rest, and "Why", as text below them.
const FIELD_EVIDENCE = new Set([
  'Level',
  'Class',
  'Tool',
  'Principal',
  'Agent',
  'Run',
  'Scope',
  'Tenant',
  'Budget',
  'Key',
]);

/**
 * Slack incoming webhook with Block Kit (https://api.slack.com/messaging/webhooks,
 * https://api.slack.com/reference/block-kit/blocks), in the order a person needs it: the one-line summary
 * (header), the next allowed action, the identifying arguments, then the evidence and a link. Incoming
 * webhooks cannot edit an earlier message, so acknowledgement and resolution post a follow-up naming the
 * same episode.
 */
export function slackRequest(sink: SlackSink, step: EpisodeEventData, ctx: BuildContext): OutboundRequest {
  const link = episodeLink(step, ctx.dashboardUrl);
  const text = notificationText(step, ctx.arguments ?? null);
  const actor = step.actor ? `${step.actor.kind}${step.actor.by ? ` ${step.actor.by}` : ''}` : null;
  const closing = step.transition === 'acknowledged' || step.transition === 'resolved';
  const blocks: unknown[] = [
    {
      type: 'header',
      text: {
        type: 'plain_text',
        text: cut(`${EMOJI[step.transition]} ${step.level.toUpperCase()} · ${text.summary}`, 150),
        emoji: true,
      },
    },
  ];
  if (!closing) {
    blocks.push(section(`*Next allowed action* · \`${text.nextAction.action}\`\n${text.nextAction.instruction}`));
  }
  const { shown, more } = text.arguments;
  if (shown.length > 0) {
    blocks.push(section('*Arguments* (redacted)'));
    blocks.push({
      type: 'section',
      fields: [
        ...shown.map((a) => field(a.name, `\`${a.value}\``)),
        ...(more > 0 ? [field('…', `${more} more`)] : []),
      ].slice(0, 10),
    });
  } else if (!closing) {
    blocks.push(section('*Arguments* · not recorded for this call'));
  }
  const facts = text.evidence.filter((e) => FIELD_EVIDENCE.has(e.label));
  const rest = text.evidence.filter((e) => !FIELD_EVIDENCE.has(e.label));
  blocks.push(section('*Evidence*'));
  for (let i = 0; i < facts.length; i += 10) {
    blocks.push({ type: 'section', fields: facts.slice(i, i + 10).map((e) => field(e.label, e.value)) });
  }
  blocks.push(section(rest.map((e) => `*${e.label}* ${e.value}`).join('\n')));
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
  // `text` is the notification's fallback (the push notification, and what screen readers say).
  const body = { text: cut(text.summary, 3000), blocks };
  return { url: sink.webhookUrl, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) };
}
