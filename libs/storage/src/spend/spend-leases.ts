import type { LedgerLine } from '@tokencircuit/governance';
import type { SqlSession } from '../sql-database.js';
import type { Literal } from './reserve-at-once.js';
import type { SpendLineRef } from './spend-lines.js';
import { releaseOnLines, type ReservationRow, type StoredHold } from './spend-reservations.js';

/**
 * Leases of spend-line room (migration 0045, docs/budgets.md "Leases"): a lease's amount is part of its line's
 * `reserved`, so whatever an API process does with it in memory, the line's committed total never passes the limit.
 */

/** A lease to take (or top up: the same id again adds to it), its slice judged by the caller (leaseSlice). */
export interface LeaseWanted {
  readonly leaseId: string;
  readonly ref: SpendLineRef;
  readonly slice: number;
}

/** What a take did on one line; a line that had no room for its slice (or no row, or another limit) is absent. */
export interface LeaseTaken {
  readonly leaseId: string;
  readonly taken: number;
  /** The lease row's amount after the take. */
  readonly amount: number;
  /** The line as it is after the take (its `reserved` includes the lease). */
  readonly line: LedgerLine;
}

const whole = (n: number): number => {
  if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`lease amount ${n} is not a whole number`);
  return n;
};

/**
 * Takes leases in one statement (sent with the tenant setting as one implicit transaction, like reserveAtOnceSql):
 * each line is locked in lockSpendLines' order and takes its slice only if it exists with the policy's limit and
 * carried + spent + reserved + slice ≤ limit under its lock — the same rule as a reservation, so leases never take a
 * line past its limit. A taken slice is added to the line's `reserved` and to its lease row (created, or topped up),
 * whose expiry moves to `expiresAt`. Lines are independent: one without room takes nothing, the others still do.
 * A line another transaction holds locked (a reservation on it under way) is skipped, not waited for: a take is
 * opportunistic (a later call asks again), and waiting would queue the preflights behind it on that row too.
 */
export function takeLeasesSql(
  literal: Literal,
  tenant: string,
  wanted: readonly LeaseWanted[],
  now: string,
  expiresAt: string,
): string {
  const t = literal(tenant);
  const rows = wanted.map((w) => ({
    id: w.leaseId,
    b: w.ref.budgetId,
    s: w.ref.subject,
    w: w.ref.window,
    slice: whole(w.slice),
    lim: whole(w.ref.limit),
    f: w.ref.carriedFrom,
  }));
  return `WITH v AS MATERIALIZED (
  SELECT * FROM jsonb_to_recordset(${literal(JSON.stringify(rows))}::jsonb)
    AS x(id text, b text, s text, w text, slice bigint, lim bigint, f text)),
c AS MATERIALIZED (
  SELECT v.*, CASE WHEN v.f IS NULL THEN 0 ELSE coalesce((SELECT sum(e.spent + e.reserved) FROM spend_lines e
     WHERE e.tenant = ${t} AND e.budget_id = v.b AND e.subject = v.s AND e.window_start >= v.f AND e.window_start < v.w), 0) END AS carried
    FROM v),
locked AS MATERIALIZED (
  SELECT l.budget_id, l.subject, l.window_start FROM spend_lines l JOIN c ON l.budget_id = c.b AND l.subject = c.s AND l.window_start = c.w
   WHERE l.tenant = ${t}
   ORDER BY l.budget_id COLLATE "C", l.subject COLLATE "C", l.window_start COLLATE "C" FOR UPDATE OF l SKIP LOCKED),
upd AS (
  UPDATE spend_lines l SET reserved = l.reserved + c.slice, updated_at = ${literal(now)}
    FROM c, locked k
   WHERE l.tenant = ${t} AND l.budget_id = c.b AND l.subject = c.s AND l.window_start = c.w
     AND k.budget_id = c.b AND k.subject = c.s AND k.window_start = c.w
     AND l.limit_amount = c.lim AND c.carried + l.spent + l.reserved + c.slice <= l.limit_amount
  RETURNING c.id, c.b, c.s, c.w, c.slice, l.spent, l.reserved, c.carried),
lease AS (
  INSERT INTO spend_leases AS e (tenant, lease_id, budget_id, subject, window_start, amount, created_at, expires_at)
  SELECT ${t}, upd.id, upd.b, upd.s, upd.w, upd.slice, ${literal(now)}, ${literal(expiresAt)} FROM upd
  ON CONFLICT (tenant, lease_id) DO UPDATE SET amount = e.amount + EXCLUDED.amount, expires_at = EXCLUDED.expires_at
  RETURNING e.lease_id, e.amount)
SELECT upd.id, upd.slice, upd.spent, upd.reserved, upd.carried, lease.amount
  FROM upd JOIN lease ON lease.lease_id = upd.id`;
}

/** What takeLeasesSql's rows say, per lease wanted that took its slice. */
export function takenOf(wanted: readonly LeaseWanted[], rows: readonly Record<string, unknown>[]): LeaseTaken[] {
  return rows.flatMap((row) => {
    const w = wanted.find((x) => x.leaseId === row.id);
    if (w === undefined) return [];
    return [
      {
        leaseId: w.leaseId,
        taken: Number(row.slice),
        amount: Number(row.amount),
        line: {
          key: w.ref.key,
          meter: w.ref.meter,
          limit: w.ref.limit,
          spent: Number(row.spent),
          reserved: Number(row.reserved),
          carried: Number(row.carried),
        },
      },
    ];
  });
}

/** Where one hold of a pending reservation was served from: its lease and line. */
export interface LeasedHold {
  readonly id: string;
  readonly b: string;
  readonly s: string;
  readonly w: string;
  readonly a: number;
}

/** A reservation served from leases, not yet written. */
export interface PendingReservation extends ReservationRow {
  readonly leases: readonly LeasedHold[];
}

export interface Flushed {
  /** `run\u001fcallId` of the reservations written; the others were recorded already (their amounts stay leased). */
  readonly written: ReadonlySet<string>;
  /** Each lease row's amount after the flush; a lease missing here is gone (expired and released). */
  readonly leases: ReadonlyMap<string, number>;
  /** The leased lines' totals as the flush found them, by `budget\u001fsubject\u001fwindow`. */
  readonly lines: ReadonlyMap<string, { readonly spent: number; readonly reserved: number }>;
  /** Holds whose lease was gone, added to their lines' `reserved` directly (see docs: a flush later than the margin). */
  readonly orphaned: number;
}

export const pendingKey = (run: string, callId: string): string => `${run}\u001f${callId}`;

/**
 * Writes one tenant's pending reservations in one statement (sent with the tenant setting as one implicit
 * transaction): each is inserted as held unless its call has a reservation already (then nothing is written and its
 * amount stays in the lease, to be served again), and each written one's holds move out of their leases — the
 * lines' totals do not change. Every lease a written reservation used is renewed to `leaseExpiresAt` (if later).
 * A hold whose lease row is gone (expired: its room was released) is added to its line directly, so the written
 * reservation is still counted; the same for any part of a hold its lease no longer covers.
 */
export function flushLeasedSql(
  literal: Literal,
  tenant: string,
  pending: readonly PendingReservation[],
  now: string,
  leaseExpiresAt: string,
): string {
  const t = literal(tenant);
  const rows = pending.map((p) => ({
    run: p.run,
    call_id: p.callId,
    agent: p.agent,
    tool: p.tool,
    holds: p.holds,
    leases: p.leases,
    created_at: p.createdAt,
    expires_at: p.expiresAt,
  }));
  return `WITH p AS MATERIALIZED (
  SELECT * FROM jsonb_to_recordset(${literal(JSON.stringify(rows))}::jsonb)
    AS x(run text, call_id text, agent text, tool text, holds jsonb, leases jsonb, created_at timestamptz, expires_at timestamptz)),
ins AS (
  INSERT INTO spend_reservations (tenant, run, call_id, agent, tool, state, holds, created_at, expires_at)
  SELECT ${t}, p.run, p.call_id, p.agent, p.tool, 'held', p.holds, p.created_at, p.expires_at FROM p
  ON CONFLICT (tenant, run, call_id) DO NOTHING
  RETURNING run, call_id),
named AS MATERIALIZED (
  SELECT DISTINCT l->>'id' AS id, l->>'b' AS b, l->>'s' AS s, l->>'w' AS w
    FROM p CROSS JOIN jsonb_array_elements(p.leases) l),
moved AS MATERIALIZED (
  SELECT l->>'id' AS id, l->>'b' AS b, l->>'s' AS s, l->>'w' AS w, sum((l->>'a')::bigint)::bigint AS a
    FROM p JOIN ins ON ins.run = p.run AND ins.call_id = p.call_id CROSS JOIN jsonb_array_elements(p.leases) l
   GROUP BY 1, 2, 3, 4),
old AS MATERIALIZED (
  SELECT e.lease_id, e.amount FROM spend_leases e JOIN named ON e.lease_id = named.id
   WHERE e.tenant = ${t} ORDER BY e.lease_id FOR UPDATE OF e),
upd AS (
  UPDATE spend_leases e SET amount = greatest(0, old.amount - moved.a),
         expires_at = greatest(e.expires_at, ${literal(leaseExpiresAt)})
    FROM moved, old
   WHERE e.tenant = ${t} AND e.lease_id = moved.id AND old.lease_id = moved.id
  RETURNING e.lease_id, e.amount),
orphan AS (
  UPDATE spend_lines l SET reserved = l.reserved + o.a, updated_at = ${literal(now)}
    FROM (SELECT moved.b, moved.s, moved.w, sum(moved.a - coalesce(least(old.amount, moved.a), 0)) AS a
            FROM moved LEFT JOIN old ON old.lease_id = moved.id
           GROUP BY moved.b, moved.s, moved.w) o
   WHERE o.a > 0 AND l.tenant = ${t} AND l.budget_id = o.b AND l.subject = o.s AND l.window_start = o.w
  RETURNING o.a)
SELECT (SELECT coalesce(json_agg(json_build_array(run, call_id)), '[]') FROM ins) AS written,
       (SELECT coalesce(json_agg(json_build_array(old.lease_id, coalesce(upd.amount, old.amount))), '[]')
          FROM old LEFT JOIN upd ON upd.lease_id = old.lease_id) AS leases,
       (SELECT coalesce(json_agg(json_build_array(l.budget_id, l.subject, l.window_start, l.spent, l.reserved)), '[]')
          FROM spend_lines l JOIN (SELECT DISTINCT b, s, w FROM named) k
            ON l.tenant = ${t} AND l.budget_id = k.b AND l.subject = k.s AND l.window_start = k.w) AS lines,
       (SELECT coalesce(sum(a), 0) FROM orphan) AS orphaned`;
}

const parsed = <T>(value: unknown): T => (typeof value === 'string' ? (JSON.parse(value) as T) : (value as T));

/** What flushLeasedSql's one row says. */
export function flushedOf(rows: readonly Record<string, unknown>[]): Flushed {
  const row = rows[0] ?? {};
  const written = parsed<[string, string][]>(row.written ?? '[]');
  const leases = parsed<[string, number | string][]>(row.leases ?? '[]');
  const lines = parsed<[string, string, string, number | string, number | string][]>(row.lines ?? '[]');
  return {
    written: new Set(written.map(([run, callId]) => pendingKey(run, callId))),
    leases: new Map(leases.map(([id, amount]) => [id, Number(amount)])),
    lines: new Map(
      lines.map(([b, s, w, spent, reserved]) => [
        `${b}\u001f${s}\u001f${w}`,
        { spent: Number(spent), reserved: Number(reserved) },
      ]),
    ),
    orphaned: Number(row.orphaned ?? 0),
  };
}

/** Returns leases: their rows are deleted and what they still held is released on their lines. The number returned. */
export async function returnLeases(
  session: SqlSession,
  tenant: string,
  leaseIds: readonly string[],
  now: string,
): Promise<number> {
  if (leaseIds.length === 0) return 0;
  const { rows } = await session.query<{ budget_id: string; subject: string; window_start: string; amount: string }>(
    `DELETE FROM spend_leases WHERE tenant = $1 AND lease_id = ANY($2::text[])
     RETURNING budget_id, subject, window_start, amount`,
    [tenant, leaseIds],
  );
  await releaseOnLines(session, tenant, rows.map(leaseHold), now);
  return rows.length;
}

/** Releases the tenant's leases that expired by `now` (their holder stopped renewing them); the number released. */
export async function expireLeases(session: SqlSession, tenant: string, now: string): Promise<number> {
  const { rows } = await session.query<{ budget_id: string; subject: string; window_start: string; amount: string }>(
    `DELETE FROM spend_leases WHERE tenant = $1 AND expires_at <= $2
     RETURNING budget_id, subject, window_start, amount`,
    [tenant, now],
  );
  await releaseOnLines(session, tenant, rows.map(leaseHold), now);
  return rows.length;
}

/** The sweep's part for leases (as the writer role: every tenant): releases up to `limit` due leases, oldest first. */
export async function expireDueLeases(session: SqlSession, now: string, limit: number): Promise<number> {
  const { rows } = await session.query<{
    tenant: string;
    budget_id: string;
    subject: string;
    window_start: string;
    amount: string;
  }>(
    `DELETE FROM spend_leases WHERE (tenant, lease_id) IN (
       SELECT tenant, lease_id FROM spend_leases WHERE expires_at <= $1 ORDER BY expires_at LIMIT $2 FOR UPDATE SKIP LOCKED)
     RETURNING tenant, budget_id, subject, window_start, amount`,
    [now, limit],
  );
  const byTenant = new Map<string, StoredHold[]>();
  for (const r of rows) byTenant.set(r.tenant, [...(byTenant.get(r.tenant) ?? []), leaseHold(r)]);
  for (const [tenant, holds] of [...byTenant.entries()].sort(([a], [b]) => (a < b ? -1 : 1)))
    await releaseOnLines(session, tenant, holds, now);
  return rows.length;
}

/** A lease's amount as a hold to release (the meter is not read when nothing is spent). */
const leaseHold = (r: { budget_id: string; subject: string; window_start: string; amount: string }): StoredHold => ({
  b: r.budget_id,
  s: r.subject,
  w: r.window_start,
  m: 'tokens',
  a: Number(r.amount),
});
