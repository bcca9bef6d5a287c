import { NO_PROGRESS_DETECTORS } from '@tokencircuit/contracts';
import type {
  ChangedAttempt,
  ChangedKey,
  DecisionSummary,
  InterventionTally,
  NoProgressStops,
  SpendReplay,
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

const blockText = (s: NoProgressStops): string =>
  s.blockAt === null ? 'off' : `${s.blockAt.read}/${s.blockAt.write}/${s.blockAt.cycle}/${s.blockAt.poll}`;

/**
 * Runs each policy's no_progress detectors would stop, and at which call (earliest / median), per detector;
 * nothing when neither policy stops a run or sees a fleet loop and their thresholds agree (a policy change
 * about something else need not read a table of zeros; --json always has it).
 */
function noProgressRows(report: WhatIfReport): string[] {
  const { baseline: b, candidate: c } = report.summary.noProgress;
  const quiet = (s: NoProgressStops) => s.runsStopped === 0 && s.fleetLoops.length === 0;
  if (quiet(b) && quiet(c) && blockText(b) === blockText(c)) return [];
  const row = (label: string, before: string | number, after: string | number) =>
    `  ${label.padEnd(40)} ${String(before).padStart(9)} ${String(after).padStart(9)}`;
  const at = (s: NoProgressStops, d: (typeof NO_PROGRESS_DETECTORS)[number]) => {
    const x = s.byDetector[d];
    return x.runs === 0 ? '0' : `${x.runs} @${x.earliestCall}/${x.medianCall}`;
  };
  return [
    row('no_progress', 'baseline', 'candidate'),
    row('  block at read/write/cycle/poll', blockText(b), blockText(c)),
    row(`  runs stopped (of ${b.runs})`, b.runsStopped, c.runsStopped),
    ...NO_PROGRESS_DETECTORS.map((d) => row(`    by ${d}`, at(b, d), at(c, d))),
    '    (runs @ earliest/median call of the run)',
    row('  fleet-wide loops', b.fleetLoops.length, c.fleetLoops.length),
    ...c.fleetLoops
      .slice(0, 5)
      .map(
        (loop) =>
          `    candidate: ${loop.tool} ${loop.callDigest.slice(0, 19)}… ${loop.runs} runs, ${loop.level}, ` +
          `${loop.firstSeen} → ${loop.lastSeen}`,
      ),
  ];
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
    ...noProgressRows(report),
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

/** Micro-units of the policy's currency as currency units (2 decimals). */
const money = (micros: number): string => (micros / 1_000_000).toFixed(2);

/**
 * The budget change (issue 31): what each policy's spend ledger would have answered at preflight, how many runs
 * it would have advised and blocked, the usage it would have let through and avoided, and when each budget
 * first blocked.
 */
export function spendWhatIfText(spend: { baseline: SpendReplay; candidate: SpendReplay }, c: Colours): string[] {
  const { baseline: b, candidate: k } = spend;
  const row = (name: string, x: number | string, y: number | string) => {
    const delta =
      typeof x === 'number' && typeof y === 'number' && x !== y ? (y > x ? `+${y - x}` : String(y - x)) : '';
    return `  ${name.padEnd(40)} ${String(x).padStart(9)} ${String(y).padStart(9)} ${delta.padStart(7)}`;
  };
  const budgets = [...new Set([...Object.keys(b.firstBlock), ...Object.keys(k.firstBlock)])].sort();
  return [
    '',
    c.bold('budgets (preflight replayed through each policy’s spend ledger)'),
    `  ${'preflight verdicts'.padEnd(40)} ${'baseline'.padStart(9)} ${'candidate'.padStart(9)} ${'change'.padStart(7)}`,
    ...(['ok', 'advise', 'page', 'block'] as const).map((level) =>
      row(`calls ${level}`, b.verdicts[level], k.verdicts[level]),
    ),
    row('runs advised or paged', b.runs.advised, k.runs.advised),
    row('runs blocked', b.runs.blocked, k.runs.blocked),
    row('tokens spent', b.spent.tokens, k.spent.tokens),
    row('tokens avoided', b.avoided.tokens, k.avoided.tokens),
    row('cost spent', money(b.spent.cost), money(k.spent.cost)),
    row('cost avoided', money(b.avoided.cost), money(k.avoided.cost)),
    ...budgets.map(
      (id) =>
        `  first block ${id}: baseline ${b.firstBlock[id] ?? (id in b.firstBlock ? 'never' : 'no such budget')}, ` +
        `candidate ${k.firstBlock[id] ?? (id in k.firstBlock ? 'never' : 'no such budget')}`,
    ),
  ];
}
