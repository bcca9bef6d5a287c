/**
 * The projection pipeline without Kafka: the same records the projector sees (binary-mode CloudEvents),
 * fed to ProjectionPipeline.process in chunks against a fresh Postgres database: events/s, CPU per event
 * of this process and of Postgres, and the wall time of each statement kind. Tells where the projector's
 * per-event cost goes when the broker and the consumer are taken out of the picture.
 *   npm run bench:pipeline [-- --events 60000 --chunk 2000 --seed 1]
 * BENCH_KEEP_DATABASE=1 leaves the database in place (e.g. to EXPLAIN the statements on real rows).
 * Not a test: nothing here asserts a time. See docs/benchmarks.md ("Pipeline").
 */
import pg from 'pg';
import { consumedRecord } from '@tokencircuit/contracts/testing';
import { DEFAULT_CONFIG } from '@tokencircuit/governance';
import { CandidateStateCache, ProjectionPipeline, type InboundRecord } from '@tokencircuit/projection';
import { loadProjectorSettings } from '@tokencircuit/projector-service';
import { pgDatabase, type PreparingSession, type SqlDatabase } from '@tokencircuit/storage';
import { generateTrace } from '@tokencircuit/testing';
import { createBenchDatabase } from './support/bench-database.js';
import { positiveIntOptions } from './support/cli-options.js';
import { loadLine, machineLine } from './support/machine.js';
import { cpuSecondsOfCommand, schedstatCpuMs } from './support/process-cpu.js';
import { fmt } from './support/quantiles.js';
import { holdWal, walByKind, walByKindLines, walByTable, walByTableLine } from './support/wal-by-table.js';

const options = positiveIntOptions({ events: 60_000, chunk: 2_000, seed: 1 });
const say = (line: string) => process.stdout.write(`${line}\n`);

const db = await createBenchDatabase('tc_bench_pipeline');
// One connection: its backend's CPU time (schedstat, ns) is read around every statement.
const pool = new pg.Pool({ connectionString: db.url, max: 1 });
const walHold = await holdWal(db.url);
try {
  say(`pipeline benchmark (no Kafka) — ${machineLine()}`);
  const events = generateTrace({ events: options.events, seed: options.seed });
  const records: InboundRecord[] = events.map((event, i) =>
    consumedRecord(event, { topic: 'bench.agent-events', partition: 0, offset: String(i) }),
  );
  say(`  ${fmt(records.length)} records, chunks of ${fmt(options.chunk)}; Postgres database ${db.name}`);

  const backend = (await pool.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
  const statements = new Map<string, { calls: number; ms: number; backendMs: number }>();
  const measure = async <T>(text: string, run: () => Promise<T>): Promise<T> => {
    const label = statementLabel(text);
    const started = performance.now();
    const backendStarted = schedstatCpuMs(backend);
    try {
      return await run();
    } finally {
      const entry = statements.get(label) ?? { calls: 0, ms: 0, backendMs: 0 };
      entry.calls += 1;
      entry.ms += performance.now() - started;
      entry.backendMs += schedstatCpuMs(backend) - backendStarted;
      statements.set(label, entry);
    }
  };
  // Keeps the session's preparing ability (queryPreparedIfAble), so the statements run as in production.
  const timed = (session: PreparingSession): PreparingSession => ({
    query: (text, params) => measure(text, () => session.query(text, params)),
    queryPrepared: (name, text, params) => measure(text, () => session.queryPrepared(name, text, params)),
  });
  const inner = pgDatabase(pool);
  const database: SqlDatabase = {
    ...timed(inner as SqlDatabase & PreparingSession),
    transaction: (work) => inner.transaction((tx) => work(timed(tx as PreparingSession))),
    // A chunk's transaction opens as in production: its first statements in the BEGIN's message, timed as one
    // statement from the call until the work starts (or the opening fails).
    transactionOpenedBy: (statements, work) => {
      let opened = (): void => undefined;
      const opening = measure('BEGIN; … (opening)', () => new Promise<void>((resolve) => (opened = resolve)));
      return inner.transactionOpenedBy!(statements, async (tx, answers) => {
        opened();
        await opening;
        return work(timed(tx as PreparingSession), answers);
      }).finally(opened);
    },
    close: () => inner.close(),
  };
  // The state cache as the projector module builds it (PROJECTOR_STATE_CACHE_KEYS, 0 turns it off).
  const cacheKeys = loadProjectorSettings(process.env).PROJECTOR_STATE_CACHE_KEYS;
  const pipeline = new ProjectionPipeline(
    database,
    { send: async () => undefined },
    DEFAULT_CONFIG,
    'bench-pipeline',
    cacheKeys > 0 ? new CandidateStateCache(cacheKeys) : undefined,
  );
  say(`  state cache: ${cacheKeys > 0 ? `${fmt(cacheKeys)} keys` : 'off'} (PROJECTOR_STATE_CACHE_KEYS)`);

  const walBefore = (await pool.query<{ lsn: string }>('SELECT pg_current_wal_insert_lsn()::text AS lsn')).rows[0]!.lsn;
  const pgBefore = await cpuSecondsOfCommand('postgres');
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  let outbox = 0;
  for (let at = 0; at < records.length; at += options.chunk) {
    const result = await pipeline.process(records.slice(at, at + options.chunk));
    outbox += result.outbox;
  }
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  const pgAfter = await cpuSecondsOfCommand('postgres');
  const walAfter = (await pool.query<{ lsn: string }>('SELECT pg_current_wal_insert_lsn()::text AS lsn')).rows[0]!.lsn;
  const n = records.length;
  say(`  ${fmt(n / seconds)} events/s (${fmt(seconds, 2)} s wall), ${fmt(outbox)} outbox rows — ${loadLine()}`);
  say(
    `  CPU per event: this process ${fmt(((cpu.user + cpu.system) / n) * 1, 1)} µs, postgres ${
      pgBefore === null || pgAfter === null ? 'n/a' : `${fmt(((pgAfter - pgBefore) * 1e6) / n, 1)} µs`
    }`,
  );
  say('  by statement, µs per event: wall, and CPU of the Postgres backend that ran it (calls):');
  for (const [label, { calls, ms, backendMs }] of [...statements].sort((a, b) => b[1].ms - a[1].ms)) {
    say(
      `    ${label.padEnd(40)} ${fmt((ms * 1000) / n, 1).padStart(7)} µs wall ${fmt((backendMs * 1000) / n, 1).padStart(7)} µs backend CPU  ${fmt(calls)}`,
    );
  }
  const sizes = await pool.query<{ relname: string; bytes: string }>(
    `SELECT relname, pg_total_relation_size(oid)::text AS bytes FROM pg_class
      WHERE relname IN ('agent_events', 'failure_state', 'decision_outbox') ORDER BY relname`,
  );
  // state_delta exists from migration 0047 on; the same benchmark also runs on a build before it.
  const hasDeltas = (
    await pool.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM pg_attribute WHERE attrelid = 'decision_outbox'::regclass AND attname = 'state_delta'",
    )
  ).rows[0]!.n;
  // earlier exists from migration 0053 on (a key's earlier transitions in the row of its latest).
  const hasEarlier = (
    await pool.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM pg_attribute WHERE attrelid = 'decision_outbox'::regclass AND attname = 'earlier'",
    )
  ).rows[0]!.n;
  const { rows: outboxShape } = await pool.query<{ copies: number; referred: number; deltas: number; earlier: number }>(
    `SELECT count(*) FILTER (WHERE state_snapshot IS NOT NULL)::int AS copies,
            count(*) FILTER (WHERE state_snapshot IS NULL)::int AS referred,
            ${hasDeltas ? 'count(*) FILTER (WHERE state_delta IS NOT NULL)::int' : '0'} AS deltas,
            ${hasEarlier ? 'coalesce(sum(json_array_length(earlier)), 0)::int' : '0'} AS earlier FROM decision_outbox`,
  );
  // outbox_states exists from migration 0039 on; the same benchmark also runs on a build before it.
  const kept = (await pool.query<{ t: string | null }>("SELECT to_regclass('outbox_states')::text AS t")).rows[0]!.t
    ? (await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM outbox_states')).rows[0]!.n
    : 0;
  say(
    `  outbox rows: ${fmt(outboxShape[0]!.copies)} with a copy of their state, ${fmt(outboxShape[0]!.deltas)} with a delta against a later one, ${fmt(outboxShape[0]!.referred - outboxShape[0]!.deltas)} referring to it, carrying ${fmt(outboxShape[0]!.earlier)} earlier transitions of their key; ${fmt(kept)} states kept in outbox_states (nothing decides here)`,
  );
  say(`  ${walByTableLine(await walByTable(pool, walBefore, walAfter), n)}`);
  say(`  WAL by relation and record kind (${walBefore}–${walAfter}):`);
  for (const line of walByKindLines(await walByKind(pool, walBefore, walAfter), n)) say(`    ${line}`);
  say(`  stored: ${sizes.rows.map((r) => `${r.relname} ${fmt(Number(r.bytes) / n)} B/event`).join(', ')}`);
} finally {
  await walHold?.release();
  await pool.end();
  if (process.env.BENCH_KEEP_DATABASE === '1')
    say(`  kept database ${db.name} (BENCH_KEEP_DATABASE=1): drop it when done`);
  else await db.drop();
}

/** "INSERT agent_events", "WITH states…", "SELECT failure_state": enough to tell the statements apart. */
function statementLabel(text: string): string {
  const words = text.replace(/\s+/g, ' ').trim();
  const verb = words.split(' ')[0]!.toUpperCase();
  const table = /(?:INTO|FROM|UPDATE)\s+([a-z_]+)/i.exec(words)?.[1] ?? '';
  return verb === 'WITH' ? `WITH ${/^WITH (\w+)/i.exec(words)?.[1] ?? ''} … (saveFold)` : `${verb} ${table}`.trim();
}
