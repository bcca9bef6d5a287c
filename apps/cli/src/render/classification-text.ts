import type { ClassifiedLine } from '../classify/classify-outcome.js';
import type { Colours } from '../io/colours.js';

/** One classify result as a line (plus its key id) for a person. */
export function classificationText(row: ClassifiedLine, c: Colours): string[] {
  const at = c.dim(`line ${row.line}`.padEnd(9));
  if (row.class === null) {
    return [`${at} ${c.green('no failure')} (${row.reason}) · side-effect boundary ${row.sideEffectBoundary}`];
  }
  return [
    `${at} ${c.bold(row.class)} (${row.reason}) · ${row.scope} scope · side-effect boundary ${row.sideEffectBoundary}`,
    `${' '.repeat(9)} ${c.dim('key')} ${row.keyId}`,
    `${' '.repeat(9)} ${c.dim('evidence')} ${row.evidence.join(', ') || '—'}`,
  ];
}

export const badLineText = (bad: { line: number; error: string; field: string }, c: Colours): string =>
  `${c.dim(`line ${bad.line}`.padEnd(9))} ${c.red('bad input')} ${c.dim(`[${bad.field}]`)} ${bad.error}`;
