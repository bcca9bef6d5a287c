import type { Amounts, Meter } from '@tokencircuit/governance';
import type { SqlSession } from '../sql-database.js';
import { lockReservedLines } from './lock-reserved-lines.js';

/** A hold as stored with its reservation: the row it is on, the meter and the amount. */
export interface StoredHold {
  readonly b: string;
  readonly s: string;
  readonly w: string;
  readonly m: Meter;
  readonly a: number;
}

export interface ReservationRow {
  readonly tenant: string;
  readonly run: string;
  readonly callId: string;
  readonly agent: string;
  readonly tool: string;
  readonly holds: readonly StoredHold[];
  readonly createdAt: string;
  readonly expiresAt: string;
}

/**
 * Records a reservation and adds its holds to the (already locked) lines, in one statement. False when the
 * call holds one already (a repeated preflight of the same call id reserves nothing twice).
 */
export async function recordReservation(session: SqlSession, row: ReservationRow): Promise<boolean> {
  const { rows } = await session.query(
    `WITH claimed AS (
       INSERT INTO spend_reservations (tenant, run, call_id, agent, tool, state, holds, created_at, expires_at)
       VALUES ($1, $2, $3, $4, $5, 'held', $6::jsonb, $7, $8)
       ON CONFLICT (tenant, run, call_id) DO NOTHING
       RETURNING holds)
     UPDATE spend_lines l SET reserved = l.reserved + (h->>'a')::bigint, updated_at = $7
       FROM claimed, jsonb_array_elements(claimed.holds) h
      WHERE l.tenant = $1 AND l.budget_id = h->>'b' AND l.subject = h->>'s' AND l.window_start = h->>'w'
     RETURNING 1`,
    [row.tenant, row.run, row.callId, row.agent, row.tool, JSON.stringify(row.holds), row.createdAt, row.expiresAt],
  );
  return rows.length > 0;
}

export type SettleResult =
  /** The held reservation is settled: its holds released, the actual amounts spent. */
  | { readonly kind: 'settled'; readonly holds: readonly StoredHold[] }
  /** Its reservation had expired (released already): the actual amounts are spent on the same lines. */
  | { readonly kind: 'late'; readonly holds: readonly StoredHold[] }
  /** Settled before: nothing changes (a re-delivered outcome). */
  | { readonly kind: 'already' }
  /** The call reserved nothing. */
  | { readonly kind: 'none' };

/**
 * Settles the reservation of a call with what it consumed (ledger units per meter). Idempotent: only a held
 * or expired reservation moves, to settled. Lines are updated in key order, like lockSpendLines locks them.
 */
export async function settleReservation(
  session: SqlSession,
  key: { readonly tenant: string; readonly run: string; readonly callId: string },
  actual: Amounts,
  costBasis: string,
  now: string,
): Promise<SettleResult> {
  const { rows } = await session.query<{ was: string; holds: StoredHold[] }>(
    `WITH old AS (
       SELECT state, holds FROM spend_reservations WHERE tenant = $1 AND run = $2 AND call_id = $3 FOR UPDATE)
     UPDATE spend_reservations r SET state = 'settled', actual = $4::jsonb, cost_basis = $5, finished_at = $6
       FROM old
      WHERE r.tenant = $1 AND r.run = $2 AND r.call_id = $3 AND old.state IN ('held', 'expired')
     RETURNING old.state AS was, old.holds`,
    [key.tenant, key.run, key.callId, JSON.stringify(actual), costBasis, now],
  );
  const row = rows[0];
  if (row === undefined) {
    const { rows: existing } = await session.query(
      'SELECT 1 FROM spend_reservations WHERE tenant = $1 AND run = $2 AND call_id = $3',
      [key.tenant, key.run, key.callId],
    );
    return existing.length > 0 ? { kind: 'already' } : { kind: 'none' };
  }
  await applyToLines(session, key.tenant, row.holds, row.was === 'held' ? 'release' : 'keep', actual, now);
  return { kind: row.was === 'held' ? 'settled' : 'late', holds: row.holds };
}

/** Usage of a call that reserved nothing, spent on the lines that cover it now (recorded once per call). */
export async function chargeUnreserved(
  session: SqlSession,
  row: ReservationRow,
  actual: Amounts,
  costBasis: string,
): Promise<boolean> {
  const { rows } = await session.query(
    `INSERT INTO spend_reservations (tenant, run, call_id, agent, tool, state, holds, actual, cost_basis, created_at, expires_at, finished_at)
     VALUES ($1, $2, $3, $4, $5, 'unreserved', $6::jsonb, $7::jsonb, $8, $9, $9, $9)
     ON CONFLICT (tenant, run, call_id) DO NOTHING RETURNING 1`,
    [
      row.tenant,
      row.run,
      row.callId,
      row.agent,
      row.tool,
      JSON.stringify(row.holds),
      JSON.stringify(actual),
      costBasis,
      row.createdAt,
    ],
  );
  if (rows.length === 0) return false;
  await applyToLines(session, row.tenant, row.holds, 'keep', actual, row.createdAt);
  return true;
}

/**
 * Releases the holds of every reservation of the tenant that expired unsettled by `now`; the number released.
 * Lines are locked in key order first, as everywhere else.
 */
export async function expireReservations(session: SqlSession, tenant: string, now: string): Promise<number> {
  const { rows } = await session.query<{ holds: StoredHold[] }>(
    `UPDATE spend_reservations SET state = 'expired', finished_at = $2
      WHERE tenant = $1 AND state = 'held' AND expires_at <= $2
     RETURNING holds`,
    [tenant, now],
  );
  const holds = rows.flatMap((r) => r.holds);
  if (holds.length > 0) await applyToLines(session, tenant, holds, 'release', null, now);
  return rows.length;
}

/**
 * The periodic sweep (the decision service's timer, as the writer role: every tenant): releases the holds of up
 * to `limit` reservations due by `now` (isReservationDue), oldest first; the number released. The lines they hold
 * are locked first, in lockSpendLines' order, then each reservation moves from held to expired only if it is still
 * held — an outcome settled meanwhile wins, and a reservation already taken by a concurrent sweep is skipped.
 */
export async function expireDueReservations(session: SqlSession, now: string, limit: number): Promise<number> {
  const { rows: due } = await session.query<{ tenant: string; run: string; call_id: string }>(
    `SELECT tenant, run, call_id FROM spend_reservations
      WHERE state = 'held' AND expires_at <= $1 ORDER BY expires_at LIMIT $2`,
    [now, limit],
  );
  if (due.length === 0) return 0;
  const keys: [string[], string[], string[]] = [
    due.map((d) => d.tenant),
    due.map((d) => d.run),
    due.map((d) => d.call_id),
  ];
  await lockReservedLines(session, keys);
  const { rows } = await session.query<{ tenant: string; holds: StoredHold[] }>(
    `UPDATE spend_reservations r SET state = 'expired', finished_at = $4
       FROM unnest($1::text[], $2::text[], $3::text[]) AS u(t, run, c)
      WHERE r.tenant = u.t AND r.run = u.run AND r.call_id = u.c AND r.state = 'held' AND r.expires_at <= $4
     RETURNING r.tenant, r.holds`,
    [...keys, now],
  );
  const byTenant = new Map<string, StoredHold[]>();
  for (const r of rows) byTenant.set(r.tenant, [...(byTenant.get(r.tenant) ?? []), ...r.holds]);
  for (const [tenant, holds] of [...byTenant.entries()].sort(([a], [b]) => (a < b ? -1 : 1)))
    await applyToLines(session, tenant, holds, 'release', null, now);
  return rows.length;
}

/** Releases holds that are not a reservation's (a lease's unused room) on their lines, locked in key order. */
export const releaseOnLines = (
  session: SqlSession,
  tenant: string,
  holds: readonly StoredHold[],
  now: string,
): Promise<void> =>
  holds.length === 0 ? Promise.resolve() : applyToLines(session, tenant, holds, 'release', null, now);

async function applyToLines(
  session: SqlSession,
  tenant: string,
  holds: readonly StoredHold[],
  reserved: 'release' | 'keep',
  actual: Amounts | null,
  now: string,
): Promise<void> {
  const sorted = [...holds].sort((x, y) =>
    `${x.b}\u001f${x.s}\u001f${x.w}` < `${y.b}\u001f${y.s}\u001f${y.w}` ? -1 : 1,
  );
  await session.query(
    `WITH v AS (
       SELECT b, s, w, sum(release) AS release, sum(spend) AS spend
         FROM unnest($2::text[], $3::text[], $4::text[], $5::bigint[], $6::bigint[]) AS u(b, s, w, release, spend)
        GROUP BY b, s, w),
     locked AS (
       SELECT l.budget_id, l.subject, l.window_start FROM spend_lines l JOIN v ON l.budget_id = v.b AND l.subject = v.s AND l.window_start = v.w
        WHERE l.tenant = $1 ORDER BY l.budget_id COLLATE "C", l.subject COLLATE "C", l.window_start COLLATE "C" FOR UPDATE OF l)
     UPDATE spend_lines l SET reserved = greatest(0, l.reserved - v.release), spent = l.spent + v.spend, updated_at = $7
       FROM v, locked
      WHERE l.tenant = $1 AND l.budget_id = v.b AND l.subject = v.s AND l.window_start = v.w
        AND locked.budget_id = v.b AND locked.subject = v.s AND locked.window_start = v.w`,
    [
      tenant,
      sorted.map((h) => h.b),
      sorted.map((h) => h.s),
      sorted.map((h) => h.w),
      sorted.map((h) => (reserved === 'release' ? h.a : 0)),
      sorted.map((h) => (actual === null ? 0 : actual[h.m])),
      now,
    ],
  );
}
