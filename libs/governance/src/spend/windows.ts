import { isoOf } from '../support/time.js';
import type { BudgetWindow } from './spend-policy.js';

/**
 * Where a budget's current window is on the ledger: `window` names the row spend is added to; a rolling
 * window also counts the rows from `carriedFrom` (inclusive) up to `window` (exclusive). Rolling windows
 * are kept in hour buckets: "the last 24 hours" is this hour's bucket and the 23 before it.
 */
export interface WindowPosition {
  readonly window: string;
  readonly carriedFrom: string | null;
}

const HOUR_MS = 3_600_000;
const hourLabel = (ms: number): string => isoOf(ms).slice(0, 13);

// Building a DateTimeFormat costs tens of microseconds; preflight asks once per call and budget.
const formats = new Map<string, Intl.DateTimeFormat>();
function localDate(ms: number, timeZone: string): string {
  let format = formats.get(timeZone);
  if (format === undefined) {
    format = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    formats.set(timeZone, format);
  }
  // en-CA writes ISO order: 2026-01-31.
  return format.format(ms);
}

/** The window of `budgetWindow` that holds the instant `nowMs`, in the tenant's time zone for calendar windows. */
export function windowAt(budgetWindow: BudgetWindow, nowMs: number, timeZone: string): WindowPosition {
  switch (budgetWindow.kind) {
    case 'run':
      return { window: 'run', carriedFrom: null };
    case 'rolling':
      return {
        window: hourLabel(nowMs),
        carriedFrom: budgetWindow.hours > 1 ? hourLabel(nowMs - (budgetWindow.hours - 1) * HOUR_MS) : null,
      };
    case 'day':
      return { window: localDate(nowMs, timeZone), carriedFrom: null };
    case 'month':
      return { window: localDate(nowMs, timeZone).slice(0, 7), carriedFrom: null };
    default: {
      const exhaustive: never = budgetWindow;
      return exhaustive;
    }
  }
}
