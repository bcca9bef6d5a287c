import type { Meter } from './spend-schema.js';

/**
 * The ledger's rules, pure: a line is one budget's current window for one subject (a run, an agent, …).
 * Preflight reserves an estimate on every line that covers a call, all or none; the outcome settles the
 * actual amount and releases the rest; a reservation never settled expires and releases all of it.
 * Every reserve keeps carried + spent + reserved ≤ limit, so spend passes a limit only by what settled
 * calls used beyond their estimates (ledger.properties.unit.spec.ts).
 */
export interface LedgerLine {
  /** budget id, subject and window: `lineKey`. */
  readonly key: string;
  readonly meter: Meter;
  readonly limit: number;
  /** Settled spend in this window's row. */
  readonly spent: number;
  /** Held by reservations not yet settled or expired. */
  readonly reserved: number;
  /** Spend of the earlier hour buckets of a rolling window (0 otherwise); read, never written here. */
  readonly carried: number;
}

/** What a reservation holds on one line. */
export interface Hold {
  readonly line: string;
  readonly meter: Meter;
  readonly amount: number;
}

export const lineKey = (budgetId: string, subject: string, window: string): string =>
  `${budgetId}\u001f${subject}\u001f${window}`;

/** Everything counted against the limit. */
export const committed = (line: LedgerLine): number => line.carried + line.spent + line.reserved;

export type ReserveOutcome =
  | { readonly kind: 'reserved'; readonly lines: readonly LedgerLine[] }
  | { readonly kind: 'refused'; readonly line: LedgerLine; readonly hold: Hold };

function byKey(lines: readonly LedgerLine[], key: string): LedgerLine {
  const line = lines.find((l) => l.key === key);
  if (line === undefined) throw new RangeError(`no ledger line ${JSON.stringify(key)} for a hold`);
  return line;
}

/** Reserves every hold or none: the first line the hold would take past its limit refuses the call. */
export function reserve(lines: readonly LedgerLine[], holds: readonly Hold[]): ReserveOutcome {
  for (const hold of holds) {
    const line = byKey(lines, hold.line);
    if (committed(line) + hold.amount > line.limit) return { kind: 'refused', line, hold };
  }
  return {
    kind: 'reserved',
    lines: lines.map((l) => adjust(l, holds, (line, amount) => ({ ...line, reserved: line.reserved + amount }))),
  };
}

/** Settles a reservation: its holds are released and the actual amounts (per meter) are spent. */
export function settle(
  lines: readonly LedgerLine[],
  holds: readonly Hold[],
  actual: Readonly<Record<Meter, number>>,
): readonly LedgerLine[] {
  return lines.map((l) =>
    adjust(l, holds, (line, amount) => ({
      ...line,
      reserved: Math.max(0, line.reserved - amount),
      spent: line.spent + actual[line.meter],
    })),
  );
}

/** Expires a reservation that was never settled: its holds are released, nothing is spent. */
export function expire(lines: readonly LedgerLine[], holds: readonly Hold[]): readonly LedgerLine[] {
  return lines.map((l) =>
    adjust(l, holds, (line, amount) => ({ ...line, reserved: Math.max(0, line.reserved - amount) })),
  );
}

/** Usage reported for a call that reserved nothing (no preflight, or its reservation expired): spent as reported. */
export function charge(
  lines: readonly LedgerLine[],
  keys: readonly string[],
  actual: Readonly<Record<Meter, number>>,
): readonly LedgerLine[] {
  return lines.map((line) => (keys.includes(line.key) ? { ...line, spent: line.spent + actual[line.meter] } : line));
}

function adjust(
  line: LedgerLine,
  holds: readonly Hold[],
  apply: (line: LedgerLine, amount: number) => LedgerLine,
): LedgerLine {
  const mine = holds.filter((h) => h.line === line.key);
  return mine.length === 0
    ? line
    : apply(
        line,
        mine.reduce((sum, h) => sum + h.amount, 0),
      );
}
