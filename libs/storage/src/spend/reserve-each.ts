import type { Literal } from './reserve-at-once.js';

/** How long a part of a batch waits for a row lock before it fails alone (see reserveEachSql). */
export const RESERVE_EACH_LOCK_TIMEOUT_MS = 100;

/**
 * Several one-statement reservations (reserveAtOnceSql) in one statement and so one transaction and one commit:
 * migration 0051's `tokencircuit_spend_reserve_each` runs each in a subtransaction, so one that fails (a refusal's
 * NOT_RESERVED_AT_ONCE, a deadlock) is rolled back alone and the others stand. Rows come back per statement, in
 * order, through eachReserved.
 */
export function reserveEachSql(literal: Literal, statements: readonly string[]): string {
  if (statements.length === 0) throw new Error('reserveEachSql needs at least one statement');
  // Each part locks its lines in the one order, but the batch holds what its earlier parts locked (the shared
  // tenant line) while a later part waits for its own (a run's line): a transaction locking in order can hold that
  // one and wait for the shared one, a cycle. A part waits at most RESERVE_EACH_LOCK_TIMEOUT_MS (then fails alone
  // with 55P03 and its caller takes the locking path), so the batch always breaks such a cycle itself, long before
  // the deadlock detector (deadlock_timeout, 1 s by default) would pick a victim that might be the other side.
  return `SELECT set_config('lock_timeout', '${RESERVE_EACH_LOCK_TIMEOUT_MS}ms', true); SELECT e.i, e.result, e.failure, e.failure_code FROM tokencircuit_spend_reserve_each(ARRAY[${statements
    .map(literal)
    .join(', ')}]::text[]) AS e ORDER BY e.i`;
}

/** One statement's part of a batch: its rows, or what it failed with. */
export type EachReserved =
  | { readonly ok: true; readonly rows: readonly Record<string, unknown>[] }
  | { readonly ok: false; readonly message: string; readonly sqlstate: string };

/** The batch's rows per statement, in the order they were given; throws when the answer does not name each once. */
export function eachReserved(count: number, rows: readonly Record<string, unknown>[]): EachReserved[] {
  if (rows.length !== count) throw new Error(`reserve_each answered ${rows.length} results for ${count} statements`);
  return rows.map((row, index) => {
    if (Number(row.i) !== index + 1)
      throw new Error(`reserve_each answered statement ${String(row.i)} at ${index + 1}`);
    if (row.failure !== null && row.failure !== undefined)
      return { ok: false, message: String(row.failure), sqlstate: String(row.failure_code ?? '') };
    const result = typeof row.result === 'string' ? (JSON.parse(row.result) as unknown) : row.result;
    if (!Array.isArray(result)) throw new Error('reserve_each answered a result that is not an array of rows');
    return { ok: true, rows: result as Record<string, unknown>[] };
  });
}
