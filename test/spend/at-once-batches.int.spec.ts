import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiDatabase, type ApiDatabase } from '@tokencircuit/api-http';
import { NOT_RESERVED_AT_ONCE, reserveAtOnceSql, reservedAtOnce, type SpendLineRef } from '@tokencircuit/storage';
import { createTestDatabase, type TestDatabase } from '@tokencircuit/testing';
import { AtOnceBatches } from '../../libs/api-http/src/spend/at-once-batches.js';
import { holdsOn, reservationOf, runWindowRef } from './support/one-statement.js';

/**
 * One-statement reservations that arrive while one is in flight leave together in one transaction
 * (tokencircuit_spend_reserve_each, migration 0051): each part all or nothing, each caller answered as if it had
 * sent its statement alone, and the limit of a line they share held exactly.
 */
describe('one-statement reservations in batches (real Postgres)', () => {
  let db: TestDatabase;
  let api: ApiDatabase;

  beforeAll(async () => {
    db = await createTestDatabase('tc_spend_at_once_batches');
    api = apiDatabase(db.pool);
  });
  afterAll(async () => {
    await db?.drop();
  });

  const ref = runWindowRef;
  const row = reservationOf;
  const holdsOf = holdsOn;

  /** Batches over the API's own atOnce, counting the round trips and the statements each carried. */
  function counting() {
    const sizes: number[] = [];
    let roundTrips = 0;
    const batches = new AtOnceBatches(
      (tenant, statement) => {
        roundTrips++;
        return api.spend.atOnce!(tenant, statement);
      },
      (size) => sizes.push(size),
    );
    return { batches, sizes, roundTrips: () => roundTrips };
  }

  async function reserveThrough(batches: AtOnceBatches, refs: readonly SpendLineRef[], run: string, amount: number) {
    try {
      return reservedAtOnce(
        refs,
        await batches.run('acme', (literal) =>
          reserveAtOnceSql(literal, refs, holdsOf(refs, amount), row(run, 'call-1')),
        ),
      );
    } catch (error) {
      if (error instanceof Error && error.message.includes(NOT_RESERVED_AT_ONCE)) return 'refused' as const;
      throw error;
    }
  }

  const reservedOn = async (subject: string) =>
    Number(
      (
        await db.pool.query<{ reserved: string }>(
          `SELECT reserved FROM spend_lines WHERE tenant = 'acme' AND subject = $1`,
          [subject],
        )
      ).rows[0]?.reserved ?? 0,
    );
  const count = async (sql: string, params: unknown[]) =>
    Number((await db.pool.query<{ n: string }>(sql, params)).rows[0]!.n);

  it('60 new runs’ first calls beside a shared tenant line with room for 25: exactly 25 reserve, in fewer round trips', async () => {
    const tenantLine = ref('tenant-tokens', 'acme-batch', 250);
    const { batches, sizes, roundTrips } = counting();
    const results = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        reserveThrough(batches, [ref('run-tokens', `run-b${i}`, 1_000), tenantLine], `run-b${i}`, 10),
      ),
    );
    const made = results.filter((r) => r !== 'refused' && r !== null);
    expect(made).toHaveLength(25);
    expect(results.filter((r) => r === 'refused')).toHaveLength(35);
    expect(await reservedOn('acme-batch')).toBe(250);
    // A refused part left neither its run line nor its reservation behind.
    expect(
      await count(`SELECT count(*) AS n FROM spend_lines WHERE tenant = 'acme' AND subject LIKE 'run-b%'`, []),
    ).toBe(25);
    expect(
      await count(`SELECT count(*) AS n FROM spend_reservations WHERE tenant = 'acme' AND run LIKE 'run-b%'`, []),
    ).toBe(25);
    // Each caller saw its own lines: after = before + its hold, on the tenant line too.
    for (const r of made) {
      const { before, after } = r as Exclude<typeof r, 'refused' | null>;
      expect(after.map((l) => l.reserved)).toEqual(before.map((l) => l.reserved + 10));
    }
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(60);
    expect(roundTrips()).toBe(sizes.length);
    expect(roundTrips()).toBeLessThan(60);
    expect(Math.max(...sizes)).toBeGreaterThan(1);
  });

  it('a part that fails alone: a statement that cannot be built, or that the database refuses, leaves its batchmates standing', async () => {
    const { batches, sizes } = counting();
    const ok = (i: number) => reserveThrough(batches, [ref('run-tokens', `run-c${i}`, 1_000)], `run-c${i}`, 5);
    const first = ok(0); // leaves alone; the next ones queue behind it and leave together
    const unbuildable = batches.run('acme', () => {
      throw new RangeError('spend amount 0.5 is not a whole number');
    });
    const refusedByDatabase = batches.run('acme', () => `SELECT 'not a number'::int AS n`);
    const rest = [ok(1), ok(2)];
    await expect(first).resolves.not.toBeNull();
    await expect(unbuildable).rejects.toThrow('spend amount 0.5 is not a whole number');
    // A value the database refuses is the client's 400, as it would be alone (clientValueErrorsAs400).
    await expect(refusedByDatabase).rejects.toMatchObject({ message: expect.stringContaining('invalid input syntax') });
    for (const r of await Promise.all(rest)) expect(r).not.toBeNull();
    expect(sizes[0]).toBe(1);
    expect(sizes.slice(1).reduce((a, b) => a + b, 0)).toBe(4);
    expect(
      await count(`SELECT count(*) AS n FROM spend_reservations WHERE tenant = 'acme' AND run LIKE 'run-c%'`, []),
    ).toBe(3);
  });

  it('a part waiting for a row that a transaction locking in order holds, while that one waits for the shared line the batch holds: the part gives up alone, the other transaction goes on', async () => {
    const shared = ref('tenant-tokens', 'acme-cycle', 10_000);
    const [r0, r1, r2] = ['run-e0', 'run-e1', 'run-e2'].map((run) => ref('run-tokens', run, 1_000));
    for (const line of [shared, r0!, r1!, r2!])
      await db.pool.query(
        `INSERT INTO spend_lines (tenant, budget_id, subject, window_start, meter, limit_amount)
         VALUES ('acme', $1, $2, 'run', 'tokens', $3)`,
        [line.budgetId, line.subject, line.limit],
      );
    const lockedInOrder = await db.pool.connect();
    try {
      await lockedInOrder.query('BEGIN');
      await lockedInOrder.query(`SELECT 1 FROM spend_lines WHERE tenant = 'acme' AND subject = 'run-e2' FOR UPDATE`);
      const { batches } = counting();
      const first = reserveThrough(batches, [r0!, shared], 'run-e0', 1); // alone; the next two leave together
      const holdsShared = reserveThrough(batches, [r1!, shared], 'run-e1', 1);
      const waitsForRun = batches
        .run('acme', (literal) =>
          reserveAtOnceSql(literal, [r2!, shared], holdsOf([r2!, shared], 1), row('run-e2', 'call-1')),
        )
        .then(
          () => 'reserved',
          (error: Error) => error.message,
        );
      // The batch's second part waits for run-e2's row, the shared line held by its first part.
      for (let waiting = false; !waiting;) {
        const { rows } = await db.pool.query(
          `SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '%tokencircuit_spend_reserve_each%'`,
        );
        waiting = rows.length > 0;
        if (!waiting) await new Promise((resolve) => setTimeout(resolve, 5));
      }
      // Now the other transaction asks for the shared line: a cycle, which the batch breaks by giving up its part.
      await lockedInOrder.query(
        `SELECT 1 FROM spend_lines WHERE tenant = 'acme' AND subject = 'acme-cycle' FOR UPDATE`,
      );
      await lockedInOrder.query('COMMIT');
      expect(await first).not.toBe('refused');
      expect(await holdsShared).not.toBe('refused');
      await expect(
        batches.run('acme', () => `SELECT 1 AS settled`), // the queue moves on after the batch
      ).resolves.toEqual([{ settled: 1 }]);
      // Given up on its lock timeout (55P03), not picked as a deadlock's victim: the caller takes the locking path.
      expect(await waitsForRun).toMatch(new RegExp(`^${NOT_RESERVED_AT_ONCE}: .*lock timeout.*\\(55P03\\)$`));
      expect(await reservedOn('acme-cycle')).toBe(2);
      expect(await reservedOn('run-e2')).toBe(0);
    } finally {
      lockedInOrder.release();
    }
  });

  it('the same call in two parts of one batch: the first reserves, the second changes nothing', async () => {
    const { batches } = counting();
    const line = ref('run-tokens', 'run-twin', 1_000);
    const blocker = reserveThrough(batches, [ref('run-tokens', 'run-d0', 1_000)], 'run-d0', 1);
    const twins = [reserveThrough(batches, [line], 'run-twin', 7), reserveThrough(batches, [line], 'run-twin', 7)];
    await blocker;
    const [a, b] = await Promise.all(twins);
    expect(a).not.toBeNull();
    expect(a).not.toBe('refused');
    expect(b).toBeNull(); // its run line's upsert saw the recorded reservation: no row, nothing changed
    expect(await reservedOn('run-twin')).toBe(7);
  });
});
