import type pg from 'pg';

/** Resolves once some session of this database waits for an advisory lock (polled: no event announces it). */
export async function waitForAdvisoryLockWaiter(pool: pg.Pool): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const { rows } = await pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted AND database =
         (SELECT oid FROM pg_database WHERE datname = current_database())`,
    );
    if (rows[0]!.n > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('no session came to wait for an advisory lock within 5 s');
}
