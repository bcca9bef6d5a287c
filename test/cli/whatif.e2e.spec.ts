import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentEvent } from '@tokencircuit/contracts';
import { consumedRecord, SpecAgent, Timeline } from '@tokencircuit/contracts/testing';
import { DEFAULT_CONFIG } from '@tokencircuit/governance';
import { ProjectionPipeline } from '@tokencircuit/projection';
import { pgDatabase, type SqlDatabase } from '@tokencircuit/storage';
import { createTestDatabase, generateTrace, type TestDatabase } from '@tokencircuit/testing';
import { jsonLines, runCli } from './support/run-cli.js';
import { tempFolder } from './support/temp-folder.js';

const RFC_TRACES = [1, 2, 3, 4, 5].map(
  (n) =>
    `examples/traces/rfc-${n}-${['permission', 'validation', 'transient', 'empty-result', 'side-effect'][n - 1]}.jsonl`,
);
const RESEARCH_KEY = 'run|acme|run=run-research|web_search|api_endpoint|search:query|transient|seb=0';

interface ChangedKeyLine {
  keyId: string;
  firstDifference: { eventId: string; baseline: { budget: number }; candidate: { budget: number } };
}

describe('npx tokencircuit whatif', () => {
  const { file } = tempFolder('tc-whatif-');

  it('finds no difference between identical policies and exits 0', async () => {
    const run = await runCli(['whatif', '--policy', file('same.json', {}), ...RFC_TRACES]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('no difference');
  });

  it('names exactly the changed key of a budget change on the RFC traces, as JSON lines, and exits 1', async () => {
    const run = await runCli([
      'whatif',
      '--json',
      '--policy',
      file('transient-1.json', { classes: { transient: { budget: 1 } } }),
      ...RFC_TRACES,
    ]);
    expect(run.code, run.stderr).toBe(1);
    const lines = jsonLines<Partial<ChangedKeyLine> & { summary?: Record<string, unknown> }>(run.stdout);
    expect(lines.slice(0, -1).map((l) => l.keyId)).toEqual([RESEARCH_KEY]);
    expect(lines[0]!.firstDifference).toMatchObject({
      eventId: 'rfc3-e02',
      baseline: { budget: 2 },
      candidate: { budget: 1 },
    });
    expect(lines.at(-1)!.summary).toMatchObject({
      events: 29,
      attempts: { requested: 13, stopped: 1, letThrough: 0 },
    });
  });

  it('--no-progress-threshold: how many runs the candidate thresholds would stop, at which call, beside the baseline', async () => {
    const agent = new SpecAgent(new Timeline(), 'acme', 'researcher', 'run-loop', { effect: 'read' });
    // A search repeated 9 times with the same answer (the SDK's result digest), then a run that never repeats.
    const loop = Array.from({ length: 9 }, () => {
      const e = agent.succeeded(agent.call('search', { arguments: { q: 'q3 revenue' } }), { empty: false });
      return { ...e, data: { ...e.data, resultDigest: `sha256:${'a'.repeat(64)}` } };
    });
    const trace = file('loop.jsonl', loop.map((e) => JSON.stringify(e)).join('\n'));
    const run = await runCli(['whatif', '--json', '--no-progress-threshold', 'read=8', trace]);
    expect(run.code, run.stderr).toBe(1);
    const summary = jsonLines<{ summary?: { noProgress: Record<string, unknown> } }>(run.stdout).at(-1)!.summary!;
    expect(summary.noProgress).toMatchObject({
      baseline: { blockAt: { read: 5 }, runs: 1, runsStopped: 1, stops: [{ run: 'run-loop', call: 5 }] },
      candidate: { blockAt: { read: 8 }, runs: 1, runsStopped: 1, stops: [{ run: 'run-loop', call: 8 }] },
    });
    const text = await runCli(['whatif', '--no-progress-threshold', 'read=8', trace]);
    expect(text.stdout).toMatch(/by same_call_same_result +1 @5\/5 +1 @8\/8/);
    const bad = await runCli(['whatif', '--no-progress-threshold', 'reed=8', trace]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--no-progress-threshold: .*"reed=8"/);
  });

  it('refuses a candidate that breaks a safety floor as loadConfig does, with exit 2', async () => {
    const run = await runCli([
      'whatif',
      '--policy',
      file('unsafe.json', { classes: { permission: { budget: 3 } } }),
      ...RFC_TRACES,
    ]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/classes\.permission\.budget: .*safety floor/);
    expect(run.stdout).toBe('');
  });

  it('reports bad trace lines like simulate and compares nothing (exit 2)', async () => {
    const trace = file('bad.jsonl', '{"id":"x","type":"tool_call.requested"}\nnot json\n');
    const run = await runCli(['whatif', '--policy', file('same2.json', {}), trace]);
    expect(run.code).toBe(2);
    expect(run.stdout).toMatch(/bad\.jsonl: line 1/);
    expect(run.stdout).toMatch(/line 2.*not JSON/);
    expect(run.stderr).toContain('2 bad line(s): nothing compared');
  });

  describe('--database', () => {
    let database: TestDatabase;
    let db: SqlDatabase;
    let events: AgentEvent[];

    beforeAll(async () => {
      database = await createTestDatabase('tc_cli_whatif');
      db = pgDatabase(new pg.Pool({ connectionString: database.url, max: 2 }));
      events = generateTrace({ seed: 11, events: 1_200, tenants: 2, principals: 3 });
      // One partition, in trace order: agent_events.seq then holds the trace order, which --database folds in.
      const pipeline = new ProjectionPipeline(db, { send: async () => undefined }, DEFAULT_CONFIG, 'whatif-spec');
      const records = events.map((event, offset) =>
        consumedRecord(event, { topic: 'whatif-spec', partition: 0, offset: String(offset) }),
      );
      for (let i = 0; i < records.length; i += 200) await pipeline.process(records.slice(i, i + 200));
      const stored = await database.pool.query<{ id: string }>('SELECT id FROM agent_events ORDER BY seq');
      expect(stored.rows.map((r) => r.id)).toEqual(events.map((e) => e.id));
    });

    afterAll(async () => {
      await db?.close();
      await database?.drop();
    });

    it('agrees with the trace mode on the same events', async () => {
      const candidate = file('tight.json', { classes: { transient: { budget: 0 }, validation: { budget: 0 } } });
      const trace = file('generated.jsonl', events.map((e) => JSON.stringify(e)).join('\n'));
      const fromTrace = await runCli(['whatif', '--json', '--policy', candidate, trace]);
      const fromDatabase = await runCli([
        'whatif',
        '--json',
        '--policy',
        candidate,
        '--database',
        '--database-url',
        database.url,
        '--page-size',
        '97',
      ]);
      expect(fromTrace.code, fromTrace.stderr).toBe(1);
      expect(fromDatabase.code, fromDatabase.stderr).toBe(1);
      expect(jsonLines(fromDatabase.stdout)).toEqual(jsonLines(fromTrace.stdout));
      expect(jsonLines(fromTrace.stdout).length).toBeGreaterThan(2);
    });

    it('filters by tenant and time', async () => {
      const candidate = file('tight2.json', { classes: { transient: { budget: 0 } } });
      const tenant = events[0]!.tenant;
      const until = events[600]!.time;
      const run = await runCli([
        'whatif',
        '--json',
        '--policy',
        candidate,
        '--database',
        '--database-url',
        database.url,
        '--tenant',
        tenant,
        '--to',
        until,
      ]);
      const summary = jsonLines<{ summary?: { events: number } }>(run.stdout).at(-1)!.summary!;
      expect(summary.events).toBe(events.filter((e) => e.tenant === tenant && e.time < until).length);
    });
  });
});
