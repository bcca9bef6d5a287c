import { lineKey } from '@tokencircuit/governance';
import type { ReservationRow, SpendLineRef, StoredHold } from '@tokencircuit/storage';

/** A line of a whole-run budget in tokens, as the one-statement reservation specs name them (tenant `acme`). */
export const runWindowRef = (budgetId: string, subject: string, limit: number): SpendLineRef => ({
  key: lineKey(budgetId, subject, 'run'),
  budgetId,
  subject,
  window: 'run',
  meter: 'tokens',
  limit,
  carriedFrom: null,
});

/** The reservation row of a call of `run` (tenant `acme`), without its holds. */
export const reservationOf = (run: string, callId: string): Omit<ReservationRow, 'holds'> => ({
  tenant: 'acme',
  run,
  callId,
  agent: 'bot',
  tool: 'llm.chat',
  createdAt: '2026-01-05T10:00:00.000Z',
  expiresAt: '2026-01-05T10:10:00.000Z',
});

/** The same amount held on each of `refs`. */
export const holdsOn = (refs: readonly SpendLineRef[], amount: number): StoredHold[] =>
  refs.map((r) => ({ b: r.budgetId, s: r.subject, w: r.window, m: r.meter, a: amount }));
