/**
 * What-if replay at scale: N stored agent events (default 1,000,000) compared under the RFC defaults and a
 * candidate policy, through the real CLI (`tokencircuit whatif --database`, streaming agent_events by
 * keyset pages) against a fresh Postgres database, plus the core alone on the same events in memory.
 * Prints events/s, wall time and the CLI's peak RSS (its memory must stay flat in the event count).
 *   npm run bench:whatif [-- --events 1000000 --chunk 20000 --seed 1]
 * BENCH_KEEP_DATABASE=1 leaves the database in place. Not a test: nothing here asserts a time.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { agentEventToCloudEvent, runOfEvent, agentOfEvent } from '@tokencircuit/contracts';
import { DEFAULT_CONFIG, loadConfig, WhatIf } from '@tokencircuit/governance';
import { generateTrace } from './core-trace.js';
import { createBenchDatabase } from './support/bench-database.js';
import { positiveIntOptions } from './support/cli-options.js';
import { machineLine } from './support/machine.js';
import { processRssMiB } from './support/memory.js';
import { fmt } from './support/quantiles.js';

const options = positiveIntOptions({ events: 1_000_000, chunk: 20_000, seed: 1 });
const say = (line: string) => process.stdout.write(`${line}\n`);
const BIN = fileURLToPath(new URL('../bin/tokencircuit.mjs', import.meta.url));
const CANDIDATE = { classes: { transient: { budget: 1 }, validation: { budget: 0 } } };

const db = await createBenchDatabase('tc_bench_whatif');
const folder = mkdtempSync(join(tmpdir(), 'tc-bench-whatif-'));
try {
  say(`what-if benchmark — ${machineLine()}`);
  say(
    `events ${fmt(options.events)} (bench/core-trace.ts, seed ${options.seed}), candidate ${JSON.stringify(CANDIDATE)}`,
  );

  // The core benchmark's fleet trace (bench/core-trace.ts): thousands of runs, every failure class.
  const trace = generateTrace(options.events, DEFAULT_CONFIG, options.seed).events;
  const core = new WhatIf(DEFAULT_CONFIG, loadConfig(CANDIDATE), false);
  const coreStarted = performance.now();
  for (const event of trace) core.push(event);
  const coreMs = performance.now() - coreStarted;
  let stored = 0;
  const insertStarted = performance.now();
  for (let index = 0; stored < trace.length; index += 1) {
    const events = trace.slice(stored, stored + options.chunk);
    // agent_events as the projector leaves it: one row per event with its CloudEvent, in seq order.
    await db.pool.query(
      `INSERT INTO agent_events (id, tenant, run, agent, type, occurred_at, cloud_event)
       SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::timestamptz[], $7::json[])`,
      [
        events.map((e) => e.id),
        events.map((e) => e.tenant),
        events.map((e) => runOfEvent(e)),
        events.map((e) => agentOfEvent(e)),
        events.map((e) => e.type),
        events.map((e) => e.time),
        events.map((e) => JSON.stringify(agentEventToCloudEvent(e))),
      ],
    );
    stored += events.length;
    if (index % 10 === 0) process.stderr.write(`  stored ${fmt(stored)} / ${fmt(trace.length)}\r`);
  }
  await db.pool.query('VACUUM ANALYZE agent_events');
  const coreReport = core.report();
  say(`setup: ${fmt(stored)} events stored in ${((performance.now() - insertStarted) / 1000).toFixed(1)} s`);
  say(
    `core alone (in memory, both policies): ${fmt(Math.round(stored / (coreMs / 1000)))} events/s ` +
      `(${((coreMs * 1000) / stored).toFixed(2)} µs/event), ${fmt(coreReport.changedKeys.length)} changed keys`,
  );

  const policy = join(folder, 'candidate.json');
  writeFileSync(policy, JSON.stringify(CANDIDATE));
  const started = performance.now();
  const child = spawn(
    process.execPath,
    [BIN, 'whatif', '--json', '--database', '--database-url', db.url, '--policy', policy],
    { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, TOKENCIRCUIT_POLICY_FILE: '' } },
  );
  let peak = 0;
  const sampler = setInterval(() => {
    void processRssMiB(child.pid!).then((m) => {
      if (m) peak = Math.max(peak, m.peak);
    });
  }, 200);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  clearInterval(sampler);
  const seconds = (performance.now() - started) / 1000;
  if (code !== 0 && code !== 1) throw new Error(`whatif exited ${code}: ${stderr}`);
  const lines = stdout.trim().split('\n');
  const summary = (JSON.parse(lines.at(-1)!) as { summary: { events: number; keys: { changed: number } } }).summary;
  say(
    `tokencircuit whatif --database: ${fmt(summary.events)} events in ${seconds.toFixed(1)} s wall ` +
      `(process start included) = ${fmt(Math.round(summary.events / seconds))} events/s; ` +
      `${fmt(summary.keys.changed)} changed keys (core alone: ${fmt(coreReport.changedKeys.length)}); CLI peak RSS ${peak.toFixed(0)} MiB`,
  );
  if (summary.keys.changed !== coreReport.changedKeys.length) {
    throw new Error('database mode and the in-memory core disagree on the changed keys');
  }
} finally {
  rmSync(folder, { recursive: true, force: true });
  if (process.env.BENCH_KEEP_DATABASE === '1') say(`kept database ${db.name}`);
  else await db.drop();
}
