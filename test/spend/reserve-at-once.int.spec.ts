import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiDatabase, type ApiDatabase } from '@tokencircuit/api-http';
import { NOT_RESERVED_AT_ONCE, reserveAtOnceSql, reservedAtOnce, type SpendLineRef } from '@tokencircuit/storage';
import { createTestDatabase, type TestDatabase } from '@tokencircuit/testing';
import { holdsOn, reservationOf, runWindowRef } from './support/one-statement.js';

/**
 * Preflight's one-round-trip reservation (the common case): all or none across the covering lines, checked again
 * under each line's lock, so concurrent callers never together pass a limit; anything it cannot decide alone
 * changes nothing and is left to the locking path.
 */
describe('a reservation in one statement (real Postgres)', () => {
  let db: TestDatabase;
  let api: ApiDatabase;

  beforeAll(async () => {
    db = await createTestDatabase('tc_spend_at_once');
    api = apiDatabase(db.pool);
  });
  afterAll(async () => {
    await db?.drop();
  });

  const ref = runWindowRef;
  const seed = async (r: SpendLineRef, spent: number) =>
    db.pool.query(
      `INSERT INTO spend_lines (tenant, budget_id, subject, window_start, meter, limit_amount, spent)
       VALUES ('acme', $1, $2, 'run', 'tokens', $3, $4)`,
      [r.budgetId, r.subject, r.limit, spent],
    );
  const reserved = async (r: SpendLineRef) =>
    Number(
      (
        await db.pool.query<{ reserved: string }>(
          `SELECT reserved FROM spend_lines WHERE tenant = 'acme' AND budget_id = $1 AND subject = $2`,
          [r.budgetId, r.subject],
        )
      ).rows[0]!.reserved,
    );
  const reservations = async (run: string) =>
    Number(
      (await db.pool.query<{ n: string }>(`SELECT count(*) AS n FROM spend_reservations WHERE run = $1`, [run]))
        .rows[0]!.n,
    );

  /**
   * The statement preflight sends; 'refused' when it failed as a whole (partial or unclaimed). `leased`: lines held
   * from these lease rows (the reservation holds them too; the statement reserves only `refs`).
   */
  async function atOnce(
    refs: readonly SpendLineRef[],
    run: string,
    callId: string,
    amount: number,
    leased: readonly { readonly id: string; readonly line: SpendLineRef }[] = [],
  ) {
    const holds = holdsOn([...refs, ...leased.map((l) => l.line)], amount);
    const fromLeases = leased.map(({ id, line }) => ({
      id,
      b: line.budgetId,
      s: line.subject,
      w: line.window,
      a: amount,
    }));
    const row = reservationOf(run, callId);
    try {
      return reservedAtOnce(
        refs,
        await api.spend.atOnce!('acme', (literal) => reserveAtOnceSql(literal, refs, holds, row, fromLeases)),
      );
    } catch (error) {
      if (error instanceof Error && error.message.includes(NOT_RESERVED_AT_ONCE)) return 'refused' as const;
      throw error;
    }
  }

  it('reserves on every line that has room and records the reservation; a repeat or a line without room changes nothing', async () => {
    const run = ref('run-tokens', 'run-a', 1_000);
    await seed(run, 600);
    const made = await atOnce([run], 'run-a', 'call-1', 300);
    expect(made).toEqual({
      before: [{ key: run.key, meter: 'tokens', limit: 1_000, spent: 600, reserved: 0, carried: 0 }],
      after: [{ key: run.key, meter: 'tokens', limit: 1_000, spent: 600, reserved: 300, carried: 0 }],
    });
    expect(await atOnce([run], 'run-a', 'call-1', 300)).toBeNull(); // the same call again
    expect(await atOnce([run], 'run-a', 'call-2', 101)).toBeNull(); // 600 + 300 + 101 > 1,000
    expect(await atOnce([{ ...run, limit: 2_000 }], 'run-a', 'call-3', 1)).toBeNull(); // the policy's limit changed
    expect(await reserved(run)).toBe(300);
    expect(await reservations('run-a')).toBe(1);
  });

  it('creates a line that does not exist yet holding the call (a run’s first call), unless the call alone passes its limit', async () => {
    const fresh = ref('run-tokens', 'run-new', 1_000);
    expect(await atOnce([fresh], 'run-new', 'call-1', 400)).toEqual({
      before: [{ key: fresh.key, meter: 'tokens', limit: 1_000, spent: 0, reserved: 0, carried: 0 }],
      after: [{ key: fresh.key, meter: 'tokens', limit: 1_000, spent: 0, reserved: 400, carried: 0 }],
    });
    expect(await reserved(fresh)).toBe(400);
    expect(await reservations('run-new')).toBe(1);
    const tooBig = ref('run-tokens', 'run-big', 1_000);
    expect(await atOnce([tooBig], 'run-big', 'call-1', 1_001)).toBeNull();
    const left = await db.pool.query(`SELECT 1 FROM spend_lines WHERE subject = 'run-big'`);
    expect(left.rowCount).toBe(0);
  });

  it('a new run line beside a shared line without room: refused as a whole, the new line not left behind', async () => {
    const tenant = ref('tenant-tokens', 'acme-full', 1_000);
    await seed(tenant, 1_000);
    const fresh = ref('run-tokens', 'run-beside-full', 10_000);
    expect(await atOnce([fresh, tenant], 'run-beside-full', 'call-1', 1)).toBe('refused');
    const left = await db.pool.query(`SELECT 1 FROM spend_lines WHERE subject = 'run-beside-full'`);
    expect(left.rowCount).toBe(0);
    expect(await reservations('run-beside-full')).toBe(0);
  });

  it('100 concurrent first calls of 10 new runs beside a shared tenant line with room for 7: exactly 7 reserve', async () => {
    const tenant = ref('tenant-tokens', 'acme-new-runs', 1_700);
    await seed(tenant, 1_000);
    const runs = Array.from({ length: 10 }, (_, i) => ref('run-tokens', `run-n${i}`, 10_000));
    const results = await Promise.all(
      Array.from({ length: 100 }, (_, i) => atOnce([runs[i % 10]!, tenant], `run-n${i % 10}`, `call-${i}`, 100)),
    );
    expect(results.filter((r) => r !== null && r !== 'refused')).toHaveLength(7);
    expect(await reserved(tenant)).toBe(700);
    let onRuns = 0;
    for (const r of runs) {
      const row = await db.pool.query<{ reserved: string }>(
        `SELECT reserved FROM spend_lines WHERE tenant = 'acme' AND budget_id = 'run-tokens' AND subject = $1`,
        [r.subject],
      );
      onRuns += Number(row.rows[0]?.reserved ?? 0);
    }
    expect(onRuns).toBe(700);
  });

  it('holds on leased lines leave their lease rows, the lines untouched; a lease short of its hold fails it all', async () => {
    const tenant = ref('tenant-tokens', 'acme-leased', 10_000);
    await seed(tenant, 0);
    await db.pool.query(`UPDATE spend_lines SET reserved = 500 WHERE subject = 'acme-leased'`);
    await db.pool.query(
      `INSERT INTO spend_leases (tenant, lease_id, budget_id, subject, window_start, amount, created_at, expires_at)
       VALUES ('acme', 'lease-1', 'tenant-tokens', 'acme-leased', 'run', 500, '2026-01-05T10:00:00Z', '2026-01-05T10:05:00Z')`,
    );
    const leaseAmount = async () =>
      Number(
        (await db.pool.query<{ amount: string }>(`SELECT amount FROM spend_leases WHERE lease_id = 'lease-1'`)).rows[0]!
          .amount,
      );
    const withLease = (run: string, amount: number) =>
      atOnce([ref('run-tokens', run, 1_000)], run, 'call-1', amount, [{ id: 'lease-1', line: tenant }]);
    expect(await withLease('run-leased', 300)).not.toBeNull();
    expect(await leaseAmount()).toBe(200);
    expect(await reserved(tenant)).toBe(500); // the line already counted the lease: unchanged
    expect(await reservations('run-leased')).toBe(1);
    expect(await withLease('run-short', 300)).toBe('refused'); // 300 > the lease's 200
    expect(await leaseAmount()).toBe(200);
    expect((await db.pool.query(`SELECT 1 FROM spend_lines WHERE subject = 'run-short'`)).rowCount).toBe(0);
    expect(await reservations('run-short')).toBe(0);
  });

  it('all or none: when one of two lines has no room, the other keeps nothing either', async () => {
    const run = ref('run-tokens', 'run-b', 10_000);
    const tenant = ref('tenant-tokens', 'acme-b', 1_000);
    await seed(run, 0);
    await seed(tenant, 950);
    expect(await atOnce([run, tenant], 'run-b', 'call-1', 100)).toBe('refused');
    expect(await reserved(run)).toBe(0);
    expect(await reserved(tenant)).toBe(0);
    expect(await reservations('run-b')).toBe(0);
  });

  it('100 concurrent callers on a run line and a shared tenant line with room for 7: exactly 7 reserve', async () => {
    const tenant = ref('tenant-tokens', 'acme-c', 1_700);
    await seed(tenant, 1_000);
    const runs = Array.from({ length: 10 }, (_, i) => ref('run-tokens', `run-c${i}`, 10_000));
    for (const r of runs) await seed(r, 0);
    const results = await Promise.all(
      Array.from({ length: 100 }, (_, i) => atOnce([runs[i % 10]!, tenant], `run-c${i % 10}`, `call-${i}`, 100)),
    );
    const made = results.filter((r) => r !== null && r !== 'refused');
    expect(made).toHaveLength(7);
    expect(await reserved(tenant)).toBe(700);
    let onRuns = 0;
    for (const r of runs) onRuns += await reserved(r);
    expect(onRuns).toBe(700);
  });
});
