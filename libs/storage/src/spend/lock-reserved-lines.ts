import type { SqlSession } from '../sql-database.js';

/**
 * Locks the spend lines that the holds of these reservations (tenant, run and call id, as three parallel arrays)
 * name, all at once and in the order lockSpendLines takes them (byte order of tenant, budget, subject, window), so
 * whoever settles or expires many reservations never waits on a preflight while holding a line that preflight
 * needs. With `states`, only the reservations in one of those states count.
 */
export async function lockReservedLines(
  session: SqlSession,
  keys: readonly [tenants: readonly string[], runs: readonly string[], callIds: readonly string[]],
  states?: readonly string[],
): Promise<void> {
  await session.query(
    `SELECT 1 FROM spend_lines l
      WHERE (l.tenant, l.budget_id, l.subject, l.window_start) IN (
        SELECT r.tenant, h->>'b', h->>'s', h->>'w'
          FROM unnest($1::text[], $2::text[], $3::text[]) AS u(t, run, c)
          JOIN spend_reservations r ON r.tenant = u.t AND r.run = u.run AND r.call_id = u.c
         CROSS JOIN jsonb_array_elements(r.holds) h${states === undefined ? '' : '\n         WHERE r.state = ANY($4::text[])'})
      ORDER BY l.tenant COLLATE "C", l.budget_id COLLATE "C", l.subject COLLATE "C", l.window_start COLLATE "C"
      FOR UPDATE OF l`,
    states === undefined ? [...keys] : [...keys, states],
  );
}
