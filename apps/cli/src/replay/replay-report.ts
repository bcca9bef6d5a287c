import type { Colours } from '../io/colours.js';
import type { RebuildResult } from './rebuild.js';
import { diffDigests, type DigestDiff, type DigestResult } from './state-digest.js';

/** What `replay` prints (one JSON object in --json mode). */
export interface ReplayReport {
  readonly identical: boolean;
  readonly schema: string;
  readonly kept: boolean;
  readonly events: number;
  readonly projected: number;
  readonly duplicates: number;
  readonly deadLettered: number;
  readonly deadLetterReasons: readonly string[];
  readonly elapsedMs: number;
  readonly eventsPerSecond: number;
  readonly live: { readonly digest: string; readonly states: number; readonly outbox: number };
  readonly rebuilt: { readonly digest: string; readonly states: number; readonly outbox: number };
  /** Up to 10 examples of each kind of difference; null when identical. */
  readonly diff: (DigestDiff & { readonly differingColumns: Readonly<Record<string, readonly string[]>> }) | null;
}

export const EXAMPLES = 10;

export function replayReport(input: {
  schema: string;
  kept: boolean;
  rebuild: RebuildResult;
  elapsedMs: number;
  live: DigestResult;
  rebuilt: DigestResult;
  /** For the differing keys given as examples: the columns that differ (see differingColumns). */
  columns?: ReadonlyMap<string, readonly string[]>;
}): ReplayReport {
  const identical = input.live.digest === input.rebuilt.digest;
  const full = identical ? null : diffDigests(input.live, input.rebuilt);
  const side = (d: DigestResult) => ({ digest: d.digest, states: d.states, outbox: d.outbox });
  return {
    identical,
    schema: input.schema,
    kept: input.kept,
    events: input.rebuild.events,
    projected: input.rebuild.projected,
    duplicates: input.rebuild.duplicates,
    deadLettered: input.rebuild.deadLetters.length,
    deadLetterReasons: [...new Set(input.rebuild.deadLetters.map((d) => d.reason))].slice(0, EXAMPLES),
    elapsedMs: input.elapsedMs,
    eventsPerSecond:
      input.elapsedMs > 0 ? Math.round((input.rebuild.events * 1000) / input.elapsedMs) : input.rebuild.events,
    live: side(input.live),
    rebuilt: side(input.rebuilt),
    diff:
      full === null
        ? null
        : {
            onlyLive: full.onlyLive.slice(0, EXAMPLES),
            onlyRebuilt: full.onlyRebuilt.slice(0, EXAMPLES),
            differing: full.differing.slice(0, EXAMPLES),
            outboxOnlyLive: full.outboxOnlyLive.slice(0, EXAMPLES),
            outboxOnlyRebuilt: full.outboxOnlyRebuilt.slice(0, EXAMPLES),
            differingColumns: Object.fromEntries(
              full.differing.slice(0, EXAMPLES).map((key) => [key, input.columns?.get(key) ?? []]),
            ),
          },
  };
}

export function replayText(r: ReplayReport, c: Colours): string[] {
  const lines = [
    `replayed ${r.events} event(s) in ${r.elapsedMs} ms (${r.eventsPerSecond}/s) into ${r.schema}${r.kept ? ' (kept)' : ''}`,
    `  live     ${r.live.digest}  ${r.live.states} state(s), ${r.live.outbox} outbox row(s)`,
    `  rebuilt  ${r.rebuilt.digest}  ${r.rebuilt.states} state(s), ${r.rebuilt.outbox} outbox row(s)`,
  ];
  if (r.deadLettered > 0)
    lines.push(c.yellow(`  ${r.deadLettered} stored event(s) no longer decode: ${r.deadLetterReasons.join('; ')}`));
  if (r.identical) return [...lines, c.green(c.bold('identical'))];
  const d = r.diff!;
  const list = (label: string, items: readonly string[]) =>
    items.length > 0 ? [`  ${label}: ${items.join(', ')}`] : [];
  return [
    ...lines,
    c.red(c.bold('DIFFERENT')),
    ...list(
      'states that differ',
      d.differing.map((key) => {
        const columns = d.differingColumns[key] ?? [];
        return columns.length > 0 ? `${key} (${columns.join(', ')})` : key;
      }),
    ),
    ...list('states only live', d.onlyLive),
    ...list('states only rebuilt', d.onlyRebuilt),
    ...list('outbox ids only live', d.outboxOnlyLive),
    ...list('outbox ids only rebuilt', d.outboxOnlyRebuilt),
  ];
}
