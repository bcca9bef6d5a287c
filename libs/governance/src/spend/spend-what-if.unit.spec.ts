import { describe, expect, it } from 'vitest';
import { parseAgentEvent, type AgentEvent } from '@tokencircuit/contracts';
import { modelLoop } from '@tokencircuit/contracts/testing';
import { DEFAULT_CONFIG, loadConfig } from '../config/load-config.js';
import { replaySpend } from './spend-what-if.js';

/** An agent loop of `turns` model turns, each reading 800 tokens and writing 200, one second apart. */
const loop = (turns: number): AgentEvent[] => modelLoop('acme', turns).map((e) => parseAgentEvent(e));

const withRunBudget = (limit: number) =>
  loadConfig({
    spend: {
      budgets: [{ id: 'run-tokens', per: 'run', meter: 'tokens', limit }],
      estimates: { tools: { 'llm.chat': { tokens: 1000 } } },
    },
  });

describe('replaying a budget change over stored calls', () => {
  it('without budgets nothing is judged and nothing avoided', () => {
    expect(replaySpend(loop(3), DEFAULT_CONFIG)).toEqual({
      verdicts: { ok: 0, advise: 0, page: 0, block: 0 },
      runs: { advised: 0, blocked: 0 },
      spent: { tokens: 0, cost: 0, calls: 0 },
      avoided: { tokens: 0, cost: 0, calls: 0 },
      firstBlock: {},
    });
  });

  it('a 10,000-token run budget over a 15-turn loop: 7 ok, 3 advised, 5 refused, their tokens avoided', () => {
    const replay = replaySpend(loop(15), withRunBudget(10_000));
    expect(replay.verdicts).toEqual({ ok: 7, advise: 3, page: 0, block: 5 });
    expect(replay.runs).toEqual({ advised: 1, blocked: 1 });
    // 800 × 0.15 + 200 × 0.6 = 240 micro-dollars a turn.
    expect(replay.spent).toEqual({ tokens: 10_000, cost: 2_400, calls: 10 });
    expect(replay.avoided).toEqual({ tokens: 5_000, cost: 1_200, calls: 5 });
    expect(replay.firstBlock).toEqual({ 'run-tokens': '2026-01-05T10:00:10.000Z' });
  });

  it('raising the limit lets every turn through: the two replays differ by exactly the avoided usage', () => {
    const tight = replaySpend(loop(15), withRunBudget(10_000));
    const loose = replaySpend(loop(15), withRunBudget(50_000));
    expect(loose.verdicts.block).toBe(0);
    expect(loose.spent.tokens).toBe(tight.spent.tokens + tight.avoided.tokens);
  });
});
