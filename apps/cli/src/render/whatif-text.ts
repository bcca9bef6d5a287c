import type {
  ChangedAttempt,
  ChangedKey,
  DecisionSummary,
  InterventionTally,
  WhatIfReport,
} from '@tokencircuit/governance';
import type { Colours } from '../io/colours.js';

/** sha256:<12 hex>…: enough to tell two policy versions apart on screen (the JSON has them whole). */
const short = (version: string): string => `${version.slice(0, 19)}…`;

const decisionText = (d: DecisionSummary | null): string =>
  d === null
    ? 'no decision'
    : `${d.intervene ? d.level : 'no intervention'} ${d.nextAction} (${d.status}, ${d.retryCount}/${d.budget})`;

/** Rows "name  baseline  candidate  change" for one breakdown of the two tallies. */
function tallyRows(
  label: string,
  pick: (t: InterventionTally) => Readonly<Record<string, number>>,
  report: WhatIfReport,
): string[] {
  const base = pick(report.summary.interventions.baseline);
  const cand = pick(report.summary.interventions.candidate);
  const names = [...new Set([...Object.keys(base), ...Object.keys(cand)])].sort();
  return names.map((name) => {
    const b = base[name] ?? 0;
    const c = cand[name] ?? 0;
    const delta = c - b === 0 ? '' : c > b ? `+${c - b}` : String(c - b);
    return `  ${`${label} ${name}`.padEnd(40)} ${String(b).padStart(9)} ${String(c).padStart(9)} ${delta.padStart(7)}`;
  });
}

function changedKeyText(key: ChangedKey, c: Colours): string[] {
  const d = key.firstDifference;
  return [
    `${c.bold(key.keyId)} ${c.dim(`${key.tenant} · ${key.failureClass} · ${key.tool}`)}`,
    `  first differs at ${d.eventId} ${c.dim(d.time)}`,
    `  baseline   ${decisionText(d.baseline)}`,
    `  candidate  ${decisionText(d.candidate)}`,
    `  interventions ${key.interventions.baseline} → ${key.interventions.candidate}`,
  ];
}

function attemptText(a: ChangedAttempt, c: Colours): string {
  const what = a.change === 'stopped' ? c.yellow('stopped') : c.cyan('let through');
  const flag = a.possibleDuplicateSideEffect ? ` ${c.red('possible duplicate side effect')}` : '';
  return `  ${what} ${a.eventId} ${c.dim(`${a.tenant}/${a.run} ${a.tool} ${a.callId}`)}${flag} — ${a.reason}`;
}

/**
 * The summary table, then the `top` most consequential changed keys, then the changed attempts. A fleet's
 * database can change hundreds of thousands of keys: the screen gets the head, --json gets every key.
 */
export function whatIfText(report: WhatIfReport, c: Colours, top = Number.POSITIVE_INFINITY): string[] {
  const s = report.summary;
  const lines = [
    c.bold(
      `what-if over ${s.events} event(s): baseline ${short(s.policyVersions.baseline)} vs candidate ${short(s.policyVersions.candidate)}`,
    ),
    `  ${'interventions'.padEnd(40)} ${'baseline'.padStart(9)} ${'candidate'.padStart(9)} ${'change'.padStart(7)}`,
    `  ${'total'.padEnd(40)} ${String(s.interventions.baseline.total).padStart(9)} ${String(s.interventions.candidate.total).padStart(9)}`,
    ...tallyRows('level', (t) => t.byLevel, report),
    ...tallyRows('next', (t) => t.byNextAction, report),
    ...tallyRows('class', (t) => t.byClass, report),
    ...tallyRows('tool', (t) => t.byTool, report),
    `  keys: ${s.keys.baseline} baseline, ${s.keys.candidate} candidate, ${s.keys.changed} with different decisions`,
    `  attempts: ${s.attempts.requested} requested, ${s.attempts.stopped} the candidate would stop, ` +
      `${s.attempts.letThrough} it would let through (${s.attempts.possibleDuplicateSideEffects} possible duplicate side effect(s))`,
    '',
  ];
  if (report.changedKeys.length === 0 && report.changedAttempts.length === 0) {
    return [...lines, c.green('no difference: the candidate decides every key and attempt as the baseline does')];
  }
  for (const key of report.changedKeys.slice(0, top)) lines.push(...changedKeyText(key, c), '');
  const hidden = report.changedKeys.length - Math.min(top, report.changedKeys.length);
  if (hidden > 0)
    lines.push(c.dim(`… ${hidden} more changed key(s), less consequential (--top N shows more, --json lists all)`), '');
  if (report.changedAttempts.length > 0) {
    lines.push(c.bold('attempts decided differently'));
    for (const attempt of report.changedAttempts) lines.push(attemptText(attempt, c));
  }
  return lines;
}
