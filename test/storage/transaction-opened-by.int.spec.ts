import fc from 'fast-check';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  pgDatabase,
  pgliteDatabase,
  sqlIntArray,
  sqlTextArray,
  transactionOpenedBy,
  type OpeningStatement,
  type SqlDatabase,
} from '@tokencircuit/storage';
import { createTestDatabase, type TestDatabase } from '@tokencircuit/testing';
import { waitForAdvisoryLockWaiter } from './support/advisory-lock-waiter.js';

const opening = (...statements: string[]): OpeningStatement<unknown[]> => ({
  statements,
  read: (answers) => [...answers[answers.length - 1]!],
});
const txid = (rows: readonly unknown[]) => (rows[0] as { txid: string }).txid;

// The projector's transactions and the decision rounds open this way: BEGIN and the first statement in one
// message. What must hold is what transaction() gives: one transaction from the opening to COMMIT or ROLLBACK.
describe('transactionOpenedBy (real Postgres, and PGlite without the one-message path)', () => {
  let db: TestDatabase;
  let sql: SqlDatabase;
  let lite: PGlite;

  beforeAll(async () => {
    db = await createTestDatabase('tc_transaction_opened_by');
    sql = pgDatabase(db.pool);
    await db.pool.query('CREATE TABLE spec_marks (id text PRIMARY KEY, n int NOT NULL)');
    await db.pool.query(`INSERT INTO spec_marks VALUES ('locked', 0)`);
    lite = new PGlite();
  });
  afterAll(async () => {
    await lite?.close();
    await db?.drop();
  });

  it('runs the opening inside the transaction it begins, hands its rows to the work, and commits', async () => {
    const { opened, inside } = await transactionOpenedBy(
      sql,
      opening('SELECT txid_current()::text AS txid'),
      async (tx, rows) => {
        await tx.query(`INSERT INTO spec_marks VALUES ('committed', 1)`);
        const { rows: again } = await tx.query('SELECT txid_current()::text AS txid');
        return { opened: txid(rows), inside: txid(again) };
      },
    );
    expect(inside).toBe(opened);
    const { rows } = await db.pool.query(`SELECT n FROM spec_marks WHERE id = 'committed'`);
    expect(rows).toEqual([{ n: 1 }]);
  });

  it("holds the opening's row locks until the work ends", async () => {
    const blocked = await transactionOpenedBy(
      sql,
      opening(`SELECT id FROM spec_marks WHERE id = 'locked' FOR UPDATE`),
      async (_tx, rows) => {
        expect(rows).toEqual([{ id: 'locked' }]);
        return sql
          .transaction(async (other) => {
            await other.query("SET LOCAL lock_timeout = '200ms'");
            await other.query(`SELECT id FROM spec_marks WHERE id = 'locked' FOR UPDATE`);
            return 'not blocked';
          })
          .catch((e: unknown) => (e as { code?: string }).code);
      },
    );
    expect(blocked).toBe('55P03');
  });

  it('runs the statements of one message in order, each with its own snapshot: a read after a lock sees what committed while it waited', async () => {
    const { seen } = await sql.transaction(async (holder) => {
      await holder.query('SELECT pg_advisory_xact_lock(4242)');
      await holder.query(`INSERT INTO spec_marks VALUES ('while-waiting', 7)`);
      const opened = transactionOpenedBy(
        sql,
        opening('SELECT pg_advisory_xact_lock(4242)', `SELECT n FROM spec_marks WHERE id = 'while-waiting'`),
        async (_tx, rows) => rows,
      );
      await waitForAdvisoryLockWaiter(db.pool);
      return { seen: opened }; // not the promise itself: the holder must commit without waiting for it
    });
    expect(await seen).toEqual([{ n: 7 }]);
  });

  it('rolls back what the work wrote when it throws, and the connection serves the next transaction', async () => {
    await expect(
      transactionOpenedBy(sql, opening('SELECT 1 AS one'), async (tx) => {
        await tx.query(`INSERT INTO spec_marks VALUES ('rolled-back', 1)`);
        throw new Error('work failed');
      }),
    ).rejects.toThrow('work failed');
    const { rows } = await db.pool.query(`SELECT count(*)::int AS n FROM spec_marks WHERE id = 'rolled-back'`);
    expect(rows).toEqual([{ n: 0 }]);
  });

  it('reports an opening the server refuses, runs no work, and leaves every pooled connection usable', async () => {
    let ran = false;
    await expect(
      transactionOpenedBy(sql, opening('SELECT * FROM spec_no_such_table'), async () => {
        ran = true;
      }),
    ).rejects.toMatchObject({ code: '42P01' });
    expect(ran).toBe(false);
    // Every connection of the pool is idle and out of any transaction afterwards.
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => transactionOpenedBy(sql, opening('SELECT 1 AS one'), async (_tx, rows) => rows)),
    );
    expect(answers).toEqual(Array.from({ length: 6 }, () => [{ one: 1 }]));
  });

  it('writes any text[] and int[] literal that reads back as the values it was given', async () => {
    const text = fc.string({ unit: fc.constantFrom('"', '\\', "'", '{', '}', ',', ' ', 'a', 'NULL', '\u00e9', '@v') });
    await fc.assert(
      fc.asyncProperty(fc.array(fc.oneof(text, fc.string()), { maxLength: 8 }), async (values) => {
        const clean = values.map((v) => v.replaceAll('\u0000', ''));
        const { rows } = await db.pool.query(`SELECT ${sqlTextArray(clean)} AS v`);
        expect(rows[0].v).toEqual(clean);
      }),
      { numRuns: 300 },
    );
    const { rows } = await db.pool.query(`SELECT ${sqlIntArray([0, 5, -3])} AS v`);
    expect(rows[0].v).toEqual([0, 5, -3]);
    expect(() => sqlIntArray([1.5])).toThrow('not an integer');
  });

  it('opens the same way on PGlite (the statement is the transaction’s first)', async () => {
    const embedded = pgliteDatabase(lite);
    await embedded.query('CREATE TABLE spec_lite (n int)');
    const seen = await transactionOpenedBy(embedded, opening('SELECT 41 + 1 AS n'), async (tx, rows) => {
      await tx.query('INSERT INTO spec_lite VALUES (1)');
      return rows;
    });
    expect(seen).toEqual([{ n: 42 }]);
    await expect(embedded.query('SELECT count(*)::int AS n FROM spec_lite')).resolves.toEqual({ rows: [{ n: 1 }] });
  });
});
