import type { LedgerLine } from '@tokencircuit/governance';
import type { LeasedHold } from './spend-leases.js';
import { compareLineRows, type SpendLineRef } from './spend-lines.js';
import type { ReservationRow, StoredHold } from './spend-reservations.js';

/** Quotes a string as an SQL literal (sqlLiteral: what node-postgres' escapeLiteral writes). */
export type Literal = (value: string) => string;

/** The text a refused or partial single-statement reservation fails with (its whole statement rolled back). */
export const NOT_RESERVED_AT_ONCE = 'tokencircuit spend: not reserved at once';

const whole = (n: number): string => {
  if (!Number.isSafeInteger(n)) throw new RangeError(`spend amount ${n} is not a whole number`);
  return String(n);
};

/**
 * The common case of a reservation in one statement, so it can travel in one round trip with the tenant setting
 * (the caller sends `SELECT set_config(…, true); <this>` as one implicit transaction): every covering line has room,
 * and a line that does not exist yet (a run's first call, a new window) is created holding this call's amount. The
 * lines are upserted in lockSpendLines' order (an existing one locked by its ON CONFLICT, so concurrent preflights
 * queue on a row instead of deadlocking), each checked again under its lock (carried + spent + reserved + estimate ≤
 * limit) and its hold added; the reservation is recorded only if every line took its hold. Anything else — a line
 * with another limit, a line without room, the call reserved already, a concurrent twin of the same call — changes
 * nothing: no row comes back when no line took a hold, and a partial or unclaimed one fails the statement with
 * NOT_RESERVED_AT_ONCE (so its inserts and updates are rolled back). Either way the caller takes the locking path,
 * which decides and explains. Values are inlined as literals: a multi-statement message carries no bind parameters.
 *
 * `fromLeases`: holds on lines this process has a lease of, taken out of those leases' rows in the same statement
 * (a lease's amount is part of its line's `reserved`, so the line is not touched: no shared line's lock on the reply
 * path). `refs` then names only the other lines, and `holds` stays the reservation's whole list. A lease row that is
 * gone, expired or short of its hold fails the statement like a line without room.
 */
export function reserveAtOnceSql(
  literal: Literal,
  refs: readonly SpendLineRef[],
  holds: readonly StoredHold[],
  row: Omit<ReservationRow, 'holds'>,
  fromLeases: readonly LeasedHold[] = [],
): string {
  const t = literal(row.tenant);
  const holdOf = (ref: SpendLineRef): number => {
    const hold = holds.find((h) => h.b === ref.budgetId && h.s === ref.subject && h.w === ref.window);
    if (hold === undefined) throw new Error(`no hold for spend line ${ref.budgetId}/${ref.subject}/${ref.window}`);
    return hold.a;
  };
  const lines = refs
    .map((ref) => ({
      ref,
      b: ref.budgetId,
      s: ref.subject,
      w: ref.window,
      m: ref.meter,
      a: holdOf(ref),
      lim: ref.limit,
      f: ref.carriedFrom,
    }))
    .sort((x, y) => compareLineRows(x.ref, y.ref))
    .map(({ ref: _ref, ...line }, i) => ({ ...line, n: i + 1 }));
  for (const l of lines) {
    whole(l.a);
    whole(l.lim);
  }
  // A statement with no line of its own would return no row even when it reserved (the lease path serves that case).
  if (lines.length === 0) throw new Error('reserveAtOnceSql needs at least one line outside the leases');
  const n = whole(lines.length);
  const leased = fromLeases.map((l) => ({ id: l.id, a: l.a }));
  for (const l of leased) whole(l.a);
  const now = literal(row.createdAt);
  return `WITH h AS MATERIALIZED (
  SELECT x.b, x.s, x.w, x.m, x.a, x.lim, x.f, x.n FROM jsonb_to_recordset(${literal(JSON.stringify(lines))}::jsonb)
    AS x(b text, s text, w text, m text, a bigint, lim bigint, f text, n int)),
c AS MATERIALIZED (
  SELECT h.*, CASE WHEN h.f IS NULL THEN 0 ELSE coalesce((SELECT sum(e.spent + e.reserved) FROM spend_lines e
     WHERE e.tenant = ${t} AND e.budget_id = h.b AND e.subject = h.s AND e.window_start >= h.f AND e.window_start < h.w), 0) END AS carried
    FROM h),
up AS (
  INSERT INTO spend_lines AS l (tenant, budget_id, subject, window_start, meter, limit_amount, reserved, updated_at)
  SELECT ${t}, c.b, c.s, c.w, c.m, c.lim, c.a, ${now} FROM c
   WHERE c.carried + c.a <= c.lim
     AND NOT EXISTS (SELECT 1 FROM spend_reservations r WHERE r.tenant = ${t} AND r.run = ${literal(row.run)} AND r.call_id = ${literal(row.callId)})
   ORDER BY c.n
  ON CONFLICT (tenant, budget_id, subject, window_start) DO UPDATE
    SET reserved = l.reserved + EXCLUDED.reserved, updated_at = EXCLUDED.updated_at
    WHERE l.limit_amount = EXCLUDED.limit_amount
      AND (SELECT c.carried FROM c WHERE c.b = l.budget_id AND c.s = l.subject AND c.w = l.window_start)
          + l.spent + l.reserved + EXCLUDED.reserved <= l.limit_amount
  RETURNING l.budget_id, l.subject, l.window_start, l.spent, l.reserved),
lz AS (
  UPDATE spend_leases e SET amount = e.amount - x.a
    FROM jsonb_to_recordset(${literal(JSON.stringify(leased))}::jsonb) AS x(id text, a bigint)
   WHERE e.tenant = ${t} AND e.lease_id = x.id AND e.amount >= x.a AND e.expires_at > ${now}
     AND (SELECT count(*) FROM up) = ${n}
  RETURNING e.lease_id),
ins AS (
  INSERT INTO spend_reservations (tenant, run, call_id, agent, tool, state, holds, created_at, expires_at)
  SELECT ${t}, ${literal(row.run)}, ${literal(row.callId)}, ${literal(row.agent)}, ${literal(row.tool)}, 'held',
         ${literal(JSON.stringify(holds))}::jsonb, ${now}, ${literal(row.expiresAt)}
   WHERE (SELECT count(*) FROM up) = ${n} AND (SELECT count(*) FROM lz) = ${whole(leased.length)}
  ON CONFLICT (tenant, run, call_id) DO NOTHING RETURNING 1)
SELECT u.budget_id, u.subject, u.window_start, u.spent, u.reserved, c.carried, c.a,
       CASE WHEN (SELECT count(*) FROM ins) = 1 THEN 0
            ELSE (${literal(NOT_RESERVED_AT_ONCE)} || ': ' || (SELECT count(*) FROM up) || ' of ' || ${n} || ' lines, '
                  || (SELECT count(*) FROM lz) || ' of ${leased.length} leases')::int END AS ok
  FROM up u JOIN c ON c.b = u.budget_id AND c.s = u.subject AND c.w = u.window_start`;
}

/**
 * The lines before and after a reservation the statement made, in `refs` order; null when it made none (no row
 * came back: some line was missing, had another limit or had no room, or the call was reserved already).
 */
export function reservedAtOnce(
  refs: readonly SpendLineRef[],
  rows: readonly Record<string, unknown>[],
): { readonly before: LedgerLine[]; readonly after: LedgerLine[] } | null {
  if (rows.length !== refs.length) return null;
  const before: LedgerLine[] = [];
  const after: LedgerLine[] = [];
  for (const ref of refs) {
    const row = rows.find(
      (r) => r.budget_id === ref.budgetId && r.subject === ref.subject && r.window_start === ref.window,
    );
    if (row === undefined) return null;
    const line = {
      key: ref.key,
      meter: ref.meter,
      limit: ref.limit,
      spent: Number(row.spent),
      reserved: Number(row.reserved),
      carried: Number(row.carried),
    };
    after.push(line);
    before.push({ ...line, reserved: line.reserved - Number(row.a) });
  }
  return { before, after };
}
