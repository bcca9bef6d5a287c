import { describe, expect, it } from 'vitest';
import { modelLoop } from '@tokencircuit/contracts/testing';
import { jsonLines, runCli } from './support/run-cli.js';
import { tempFolder } from './support/temp-folder.js';

/** A 15-turn agent loop, each turn 800 tokens in and 200 out, one second apart: 15,000 tokens in all. */
const LOOP = modelLoop('acme', 15);

const runBudget = (limit: number) => ({
  spend: {
    budgets: [{ id: 'run-tokens', per: 'run', meter: 'tokens', limit }],
    estimates: { tools: { 'llm.chat': { tokens: 1000 } } },
  },
});

describe('tokencircuit whatif replays a budget change', () => {
  const { file } = tempFolder('tc-whatif-budgets-');

  it('raising a run budget from 10,000 to 50,000 tokens: the 5 blocked calls and the blocked run are let through', async () => {
    const trace = file('loop.jsonl', LOOP.map((e) => JSON.stringify(e)).join('\n'));
    const baseline = file('tight.json', runBudget(10_000));
    const candidate = file('loose.json', runBudget(50_000));
    const run = await runCli(['whatif', '--json', '--baseline', baseline, '--policy', candidate, trace]);
    expect(run.code, run.stderr).toBe(1);
    const summary = jsonLines<{ summary?: { spend?: Record<string, unknown> } }>(run.stdout).at(-1)!.summary!;
    expect(summary.spend).toEqual({
      baseline: {
        verdicts: { ok: 7, advise: 3, page: 0, block: 5 },
        runs: { advised: 1, blocked: 1 },
        spent: { tokens: 10_000, cost: 2_400, calls: 10 },
        avoided: { tokens: 5_000, cost: 1_200, calls: 5 },
        firstBlock: { 'run-tokens': '2026-01-05T10:00:10.000Z' },
      },
      candidate: {
        verdicts: { ok: 15, advise: 0, page: 0, block: 0 },
        runs: { advised: 0, blocked: 0 },
        spent: { tokens: 15_000, cost: 3_600, calls: 15 },
        avoided: { tokens: 0, cost: 0, calls: 0 },
        firstBlock: { 'run-tokens': null },
      },
    });
  });

  it('prints the budgets table on screen, and the same budgets under both policies exit 0', async () => {
    const trace = file('loop2.jsonl', LOOP.map((e) => JSON.stringify(e)).join('\n'));
    const tight = file('tight2.json', runBudget(10_000));
    const changed = await runCli([
      'whatif',
      '--baseline',
      file('loose2.json', runBudget(50_000)),
      '--policy',
      tight,
      trace,
    ]);
    expect(changed.code, changed.stderr).toBe(1);
    expect(changed.stdout).toMatch(/runs blocked\s+0\s+1\s+\+1/);
    expect(changed.stdout).toContain('first block run-tokens: baseline never, candidate 2026-01-05T10:00:10.000Z');
    const same = await runCli(['whatif', '--baseline', tight, '--policy', tight, trace]);
    expect(same.code, same.stderr).toBe(0);
    expect(same.stdout).toMatch(/calls block\s+5\s+5/);
  });
});
