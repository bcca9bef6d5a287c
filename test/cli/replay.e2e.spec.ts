import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OutboxRetention } from '@tokencircuit/decision-relay';
import { DEFAULT_CONFIG } from '@tokencircuit/governance';
import { pgDatabase, type SqlDatabase } from '@tokencircuit/storage';
import { createTestDatabase, generateTrace, type TestDatabase } from '@tokencircuit/testing';
import { projectTrace } from './support/project-trace.js';
import { jsonLines, runCli } from './support/run-cli.js';

interface ReplayReport {
  identical: boolean;
  schema: string;
  events: number;
  projected: number;
  duplicates: number;
  deadLettered: number;
  eventsPerSecond: number;
  live: { digest: string; states: number; outbox: number };
  rebuilt: { digest: string; states: number; outbox: number };
  diff: {
    differing: string[];
    onlyLive: string[];
    onlyRebuilt: string[];
    outboxOnlyLive: string[];
    outboxOnlyRebuilt: string[];
    differingColumns: Record<string, string[]>;
  } | null;
}

const EVENTS = 1_500;

describe('npx tokencircuit replay against Postgres: rebuild every projection from agent_events and compare', () => {
  let database: TestDatabase;
  let db: SqlDatabase;

  const replay = async (...extra: string[]) => {
    const run = await runCli(['replay', '--json', '--database-url', database.url, ...extra], { timeoutMs: 240_000 });
    return { run, report: jsonLines<ReplayReport>(run.stdout)[0]! };
  };
  const replaySchemas = async () =>
    (
      await database.pool.query<{ nspname: string }>(
        "SELECT nspname FROM pg_namespace WHERE nspname LIKE 'replay\\_%' ORDER BY 1",
      )
    ).rows.map((r) => r.nspname);

  beforeAll(async () => {
    database = await createTestDatabase('tc_cli_replay');
    db = pgDatabase(new pg.Pool({ connectionString: database.url, max: 2 }));
    const deadLetters = await projectTrace(
      db,
      generateTrace({ seed: 42, events: EVENTS, tenants: 3, principals: 4 }),
      DEFAULT_CONFIG,
    );
    expect(deadLetters).toEqual([]);
  });

  afterAll(async () => {
    await db?.close();
    await database?.drop();
  });

  it('the rebuilt state of a generated trace is identical to the live one, digest for digest', async () => {
    const { rows } = await database.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM agent_events');
    const { run, report } = await replay();
    expect(run.code, run.stderr).toBe(0);
    expect(report).toMatchObject({
      identical: true,
      events: rows[0]!.n,
      projected: rows[0]!.n,
      duplicates: 0,
      deadLettered: 0,
      diff: null,
    });
    expect(report.rebuilt).toEqual(report.live);
    expect(report.live.states).toBeGreaterThan(10);
    expect(report.live.outbox).toBeGreaterThan(report.live.states);
    console.info(`[replay e2e] ${report.events} events replayed at ${report.eventsPerSecond} events/s`);
  });

  it('drops its schema afterwards, and keeps it with --keep', async () => {
    expect(await replaySchemas()).toEqual([]);
    const { run, report } = await replay('--keep', '--page-size', '250');
    expect(run.code, run.stderr).toBe(0);
    expect(report.identical).toBe(true);
    expect(await replaySchemas()).toEqual([report.schema]);
    // The kept schema holds the rebuilt tables; the live database's own migration history is untouched.
    const rebuilt = await database.pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM "${report.schema}".failure_state`,
    );
    expect(rebuilt.rows[0]!.n).toBe(report.rebuilt.states);
    await database.pool.query(`DROP SCHEMA "${report.schema}" CASCADE`);
  });

  it("outbox rows the decision service's retention purged still count as decided: identical", async () => {
    // Rows no delta row depends on (migration 0047): the purge keeps a base while a row with a delta on it waits.
    await database.pool.query(
      `UPDATE decision_outbox SET published_at = now() - interval '30 days'
        WHERE id IN (SELECT id FROM decision_outbox WHERE dependents_from IS NULL ORDER BY id DESC LIMIT 100)`,
    );
    // A row holds its key's transitions of one projector transaction (migration 0053): each one's id is kept.
    const { rows: held } = await database.pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM decision_outbox_transitions
        WHERE row_id IN (SELECT id FROM decision_outbox WHERE published_at < now() - interval '7 days')`,
    );
    expect(held[0]!.n).toBeGreaterThan(100);
    expect(await new OutboxRetention(db, 7 * 24).purge()).toBe(100);
    const { rows } = await database.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM decision_outbox_purged');
    expect(rows[0]!.n).toBe(held[0]!.n);

    const { run, report } = await replay();
    expect(run.code).toBe(0);
    expect(report.identical).toBe(true);
    expect(report.live.outbox).toBe(report.rebuilt.outbox);
  });

  it('a tampered failure_state row is found: exit 1, both digests, the key that differs', async () => {
    const { rows } = await database.pool.query<{ key_id: string }>(
      "SELECT key_id FROM failure_state WHERE status <> 'resolved' ORDER BY key_id LIMIT 1",
    );
    const tampered = rows[0]!.key_id;
    // Someone edits a key's retry count in place: the events say otherwise.
    await database.pool.query(
      `UPDATE failure_state SET state = jsonb_set(state::jsonb, '{retryCount}', to_jsonb((state->>'retryCount')::int + 5))
        WHERE key_id = $1`,
      [tampered],
    );

    const { run, report } = await replay();
    expect(run.code).toBe(1);
    expect(report.identical).toBe(false);
    expect(report.live.digest).not.toBe(report.rebuilt.digest);
    expect(report.diff).toEqual({
      differing: [tampered],
      onlyLive: [],
      onlyRebuilt: [],
      outboxOnlyLive: [],
      outboxOnlyRebuilt: [],
      differingColumns: { [tampered]: ['state'] },
    });

    const human = await runCli(['replay', '--database-url', database.url], { timeoutMs: 240_000 });
    expect(human.code).toBe(1);
    expect(human.stdout).toContain('DIFFERENT');
    expect(human.stdout).toContain(`states that differ: ${tampered} (state)`);
  });

  it('a flat column edited alone (what preflight filters on, the state document untouched) is found and named', async () => {
    const { rows } = await database.pool.query<{ key_id: string }>(
      "SELECT key_id FROM failure_state WHERE status = 'open' ORDER BY key_id DESC LIMIT 1",
    );
    const tampered = rows[0]!.key_id;
    // Preflight reads status, budget and retry_count from the columns: an edit there unblocks a tool.
    await database.pool.query(`UPDATE failure_state SET status = 'resolved', budget = budget + 3 WHERE key_id = $1`, [
      tampered,
    ]);
    const { run, report } = await replay();
    expect(run.code).toBe(1);
    expect(report.diff?.differing).toContain(tampered);
    expect(report.diff?.differingColumns[tampered]).toEqual(['budget', 'status']);
  });

  it('a deleted outbox row is found too, with every transition it held', async () => {
    // A row with earlier transitions, and fewer than the report's ten examples.
    const { rows: chosen } = await database.pool.query<{ id: string }>(
      'SELECT id FROM decision_outbox WHERE earlier IS NOT NULL ORDER BY json_array_length(earlier), id LIMIT 1',
    );
    const { rows: held } = await database.pool.query<{ id: string }>(
      'SELECT id FROM decision_outbox_transitions WHERE row_id = $1',
      [chosen[0]!.id],
    );
    expect(held.length).toBeGreaterThan(1);
    await database.pool.query('DELETE FROM decision_outbox WHERE id = $1', [chosen[0]!.id]);
    const { run, report } = await replay();
    expect(run.code).toBe(1);
    expect([...report.diff!.outboxOnlyRebuilt].sort()).toEqual(held.map((r) => r.id).sort());
  });

  it('an unreachable database is a usage error naming the problem (exit 2)', async () => {
    const run = await runCli(['replay', '--database-url', 'postgres://postgres@127.0.0.1:9/nowhere']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/tokencircuit: cannot connect/);
  });
});
