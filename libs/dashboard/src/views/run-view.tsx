import type { ComponentChildren } from 'preact';
import { api } from '../api.js';
import { nextActionText } from '../format.js';
import { useLoaded } from '../hooks.js';
import type { RunTimeline } from '../types.js';
import { FailureClass, interventionHref, Level, Show } from './common.js';

interface Entry {
  readonly at: string;
  readonly order: number;
  readonly kind: string;
  readonly body: ComponentChildren;
  readonly raw: unknown;
  readonly key: string;
}

type Data = Record<string, unknown>;
const obj = (value: unknown): Data => (typeof value === 'object' && value !== null ? (value as Data) : {});

/** One line per event, in words: the tool call, its outcome, the verifier's result, the operator's action. */
function describe(type: string, value: unknown): { kind: string; text: string } {
  const data = obj(value);
  const call = obj(data.call);
  switch (type) {
    case 'tool_call.requested':
      return {
        kind: 'Tool call',
        text: `${String(call.tool ?? '?')} attempt ${String(call.attempt ?? '?')} (call ${String(call.callId ?? '?')})`,
      };
    case 'tool_call.outcome': {
      const error = obj(data.error);
      const message = [error.httpStatus, error.code ?? error.errno, error.message].filter(
        (p) => p !== null && p !== undefined,
      );
      return {
        kind: 'Outcome',
        text: `${String(data.status ?? '?')}${message.length ? `: ${message.join(' ')}` : ''} (call ${String(call.callId ?? data.callId ?? '?')})`,
      };
    }
    case 'verifier.result':
      return {
        kind: 'Verifier',
        // v2 data says its finding; events stored before v2 still hold v1's `passed`.
        text: `${String(data.verifier ?? 'verifier')} ${String(data.finding ?? (data.passed ? 'passed' : 'failed'))}${data.detail ? `: ${String(data.detail)}` : ''}`,
      };
    case 'operator.resolution':
      return { kind: 'Operator', text: `${String(data.resolution)} by ${String(data.by)}: ${String(data.reason)}` };
    default:
      return { kind: type, text: '' };
  }
}

/** A run's timeline: tool calls, outcomes, verifier results and the decisions taken about them, in time order. */
export function RunView({ run, version }: { run: string; version: number }) {
  const timeline = useLoaded(() => api<RunTimeline>(`/v1/dashboard/runs/${encodeURIComponent(run)}`), [run, version]);
  return (
    <Show value={timeline}>
      {(t) => {
        const entries: Entry[] = [
          ...t.events.map((event, index) => {
            const { kind, text } = describe(event.type, event.data);
            return {
              at: event.occurredAt,
              order: index,
              kind,
              body: (
                <>
                  {text}
                  {event.agent && <span class="muted"> · agent {event.agent}</span>}
                </>
              ),
              raw: event.data,
              key: `e-${event.id}`,
            };
          }),
          ...t.interventions.map((item) => ({
            at: item.issuedAt,
            order: 1e9 + item.seq,
            kind: 'Decision',
            body: (
              <a href={interventionHref(item.id)}>
                <Level level={item.level} /> <FailureClass value={item.failureClass} /> on <code>{item.toolName}</code>{' '}
                → {nextActionText(item.nextAction)}
              </a>
            ),
            raw: item,
            key: `i-${item.id}`,
          })),
        ].sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : a.order - b.order));
        return (
          <article aria-labelledby="run-title">
            <p>
              <a href="#/">← Fleet now</a>
            </p>
            <h1 id="run-title">Run {t.run}</h1>
            {t.truncated && <p class="notice">Only the newest {t.events.length} events of this run are shown.</p>}
            <ol class="timeline">
              {entries.map((entry) => (
                <li key={entry.key} class={`kind-${entry.kind.toLowerCase().replace(/\s+/g, '-')}`}>
                  <time dateTime={entry.at}>{entry.at.slice(11, 23)}</time>
                  <span class="kind">{entry.kind}</span>
                  <div class="what">
                    {entry.body}
                    <details>
                      <summary>data</summary>
                      <pre>{JSON.stringify(entry.raw, null, 2)}</pre>
                    </details>
                  </div>
                </li>
              ))}
            </ol>
          </article>
        );
      }}
    </Show>
  );
}
