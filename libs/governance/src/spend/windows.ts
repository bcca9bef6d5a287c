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

// Building a DateTimeFormat costs tens of microseconds, and so does each format() (≈ 25 µs here, ICU): preflight
// asks once per call and calendar budget, so the answer is kept per time zone for the second it was asked in. Every
// UTC offset the time zone database has ever used is a whole number of seconds, so a date cannot change inside one.
const formats = new Map<string, Intl.DateTimeFormat>();
const lastDates = new Map<string, { second: number; date: string }>();
function localDate(ms: number, timeZone: string): string {
  const second = Math.floor(ms / 1000);
  const last = lastDates.get(timeZone);
  if (last !== undefined && last.second === second) return last.date;
  let format = formats.get(timeZone);
  if (format === undefined) {
    format = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    formats.set(timeZone, format);
  }
  // en-CA writes ISO order: 2026-01-31.
  const date = format.format(ms);
  if (last === undefined) lastDates.set(timeZone, { second, date });
  else {
    last.second = second;
    last.date = date;
  }
  return date;
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
