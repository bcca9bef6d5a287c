/**
 * A Slack Block Kit message as HTML that looks like Slack renders it (header, mrkdwn sections, two-column
 * fields, context, buttons), for the screenshot in docs/notifier.md. Only the block types and the mrkdwn the
 * notifier sends: *bold*, `code`, <url|text> and the four emoji shortcodes it uses.
 */
const EMOJI: Record<string, string> = {
  ':rotating_light:': '🚨',
  ':arrow_double_up:': '⏫',
  ':eyes:': '👀',
  ':white_check_mark:': '✅',
};

const escape = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const emoji = (text: string): string => text.replace(/:[a-z_]+:/g, (code) => EMOJI[code] ?? code);

/** Slack mrkdwn: code spans first (nothing inside them is formatted), then bold, links and line breaks. */
export function mrkdwn(text: string): string {
  return emoji(text)
    .split(/(`[^`]*`)/)
    .map((part) =>
      part.startsWith('`') && part.endsWith('`') && part.length >= 2
        ? `<code>${escape(part.slice(1, -1))}</code>`
        : escape(part)
            .replace(/\*([^*\n]+)\*/g, '<b>$1</b>')
            .replace(/&lt;(https?:[^|&]+)\|([^&]+)&gt;/g, '<a href="$1">$2</a>'),
    )
    .join('')
    .replace(/\n/g, '<br>');
}

interface Block {
  readonly type: string;
  readonly text?: { readonly type: string; readonly text: string };
  readonly fields?: readonly { readonly text: string }[];
  readonly elements?: readonly { readonly type: string; readonly text?: string | { readonly text: string } }[];
}

function block(b: Block): string {
  switch (b.type) {
    case 'header':
      return `<div class="header">${escape(emoji(b.text!.text))}</div>`;
    case 'section':
      return (
        `<div class="section">` +
        (b.text ? `<div>${mrkdwn(b.text.text)}</div>` : '') +
        (b.fields ? `<div class="fields">${b.fields.map((f) => `<div>${mrkdwn(f.text)}</div>`).join('')}</div>` : '') +
        `</div>`
      );
    case 'context':
      return `<div class="context">${(b.elements ?? []).map((e) => mrkdwn(String(e.text ?? ''))).join(' ')}</div>`;
    case 'actions':
      return `<div class="actions">${(b.elements ?? [])
        .map((e) => `<span class="button">${escape(typeof e.text === 'object' ? e.text.text : '')}</span>`)
        .join('')}</div>`;
    default:
      return '';
  }
}

/** A whole page: the app's name and avatar, the time, then the blocks. */
export function slackMessageHtml(message: { readonly blocks: readonly Block[] }, app: string, time: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><style>
body { margin: 0; background: #fff; font: 15px/1.47 Lato, "Helvetica Neue", Helvetica, "Segoe UI", Arial, sans-serif, "Noto Color Emoji"; color: #1d1c1d; }
.message { display: flex; gap: 8px; padding: 16px 20px; max-width: 760px; box-sizing: border-box; overflow-wrap: anywhere; }
.body { flex: 1; min-width: 0; }
.avatar { width: 36px; height: 36px; border-radius: 4px; background: #4a154b; color: #fff; font-weight: 900; display: flex; align-items: center; justify-content: center; flex: none; }
.meta b { font-weight: 900; } .meta .tag { font-size: 10px; background: #e8e8e8; color: #616061; padding: 1px 3px; border-radius: 2px; margin: 0 4px; }
.meta .time { color: #616061; font-size: 12px; }
.header { font-size: 18px; font-weight: 900; line-height: 1.33; margin: 4px 0 8px; }
.section { margin: 8px 0; }
.fields { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); gap: 8px 16px; margin-top: 4px; }
code { font: 12px Monaco, Menlo, Consolas, monospace; color: #e01e5a; background: #f8f8f8; border: 1px solid #dddddd; border-radius: 3px; padding: 1px 3px; word-break: break-all; }
.context { color: #616061; font-size: 13px; margin: 8px 0; }
.button { display: inline-block; border: 1px solid #bbbabb; border-radius: 4px; padding: 4px 12px; font-weight: 700; font-size: 13px; }
a { color: #1264a3; text-decoration: none; }
</style></head><body><div class="message"><div class="avatar">TC</div><div class="body">
<div class="meta"><b>${escape(app)}</b><span class="tag">APP</span><span class="time">${escape(time)}</span></div>
${message.blocks.map(block).join('\n')}
</div></div></body></html>`;
}
