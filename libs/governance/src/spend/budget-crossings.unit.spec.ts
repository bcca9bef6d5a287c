import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ToolCallSchema } from '@tokencircuit/contracts';
import { toolCall } from '@tokencircuit/contracts/testing';
import { loadConfig } from '../config/load-config.js';
import { budgetCrossingId, budgetCrossings } from './budget-crossings.js';
import { coveringLines, holdsFor } from './covering.js';
import { reserve, settle, type LedgerLine } from './ledger.js';
import { pagedRunBudget } from './spec-support.js';
import { tenantSpend } from './spend-policy.js';

const spend = loadConfig({ spend: { budgets: [pagedRunBudget(1000, 'page the owner')] } }).spend!;
const NOW = Date.parse('2026-03-01T10:00:00.000Z');
const call = ToolCallSchema.parse(toolCall({ agent: 'loop-bot', run: 'run-7', tool: 'llm.chat' }));
const covering = coveringLines(tenantSpend(spend, 'acme'), 'acme', call, NOW);
const line = (spent: number, reserved = 0): LedgerLine[] => [
  { key: covering[0]!.key, meter: 'tokens', limit: 1000, spent, reserved, carried: 0 },
];

describe('budgetCrossings: what a settle crossed', () => {
  it('given 700 settled, when a settle brings it to 850, then the 80 % advice is crossed and nothing else', () => {
    const crossed = budgetCrossings('acme', covering, line(700), line(850));
    expect(crossed).toEqual([
      expect.objectContaining({
        budgetId: 'run-tokens',
        per: 'run',
        subject: 'run-7',
        meter: 'tokens',
        window: 'run',
        windowKind: 'run',
        limit: 1000,
        spent: 850,
        threshold: 0.8,
        level: 'advise',
        nextAction: 'summarise and stop',
        crossingId: budgetCrossingId('acme', 'run-tokens', 'run-7', 'run', 0.8),
      }),
    ]);
  });

  it('given 700 settled, when one settle brings it to 1,000, then advice, page and the hard limit are all crossed', () => {
    const crossed = budgetCrossings('acme', covering, line(700), line(1000));
    expect(crossed.map((c) => [c.threshold, c.level, c.nextAction])).toEqual([
      [0.8, 'advise', 'summarise and stop'],
      [0.9, 'page', 'page the owner'],
      [1, 'block', 'ask for a budget increase'],
    ]);
  });

  it('given the line already past a threshold, when more is settled, then that threshold is not crossed again', () => {
    expect(budgetCrossings('acme', covering, line(850), line(880))).toEqual([]);
  });

  it('given usage delivered again (the settle changed nothing), then nothing is crossed', () => {
    expect(budgetCrossings('acme', covering, line(850), line(850))).toEqual([]);
  });

  it('a reservation alone crosses nothing: only settled spend counts', () => {
    expect(budgetCrossings('acme', covering, line(700), line(700, 300))).toEqual([]);
  });

  it('a line not read before counts as empty', () => {
    expect(budgetCrossings('acme', covering, [], line(800)).map((c) => c.threshold)).toEqual([0.8]);
  });

  it('the crossing id names tenant, budget, subject, window and threshold: a new window or tenant crosses anew', () => {
    const id = budgetCrossingId('acme', 'run-tokens', 'run-7', '2026-03-01', 0.8);
    expect(budgetCrossingId('acme', 'run-tokens', 'run-7', '2026-03-01', 0.8)).toBe(id);
    expect(budgetCrossingId('acme', 'run-tokens', 'run-7', '2026-03-02', 0.8)).not.toBe(id);
    expect(budgetCrossingId('globex', 'run-tokens', 'run-7', '2026-03-01', 0.8)).not.toBe(id);
    expect(budgetCrossingId('acme', 'run-tokens', 'run-7', '2026-03-01', 0.9)).not.toBe(id);
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('property: over any sequence of settles, each threshold is crossed exactly once, by the settle that reaches it', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 400 }), { minLength: 1, maxLength: 30 }), (usages) => {
        let lines: readonly LedgerLine[] = line(0);
        const ids: string[] = [];
        for (const used of usages) {
          const holds = holdsFor(covering, { tokens: 100, cost: 0, calls: 1 });
          const reserved = reserve(lines, holds);
          const held = reserved.kind === 'reserved' ? reserved.lines : lines;
          const after = settle(held, reserved.kind === 'reserved' ? holds : [], {
            tokens: used,
            cost: 0,
            calls: 1,
          });
          ids.push(...budgetCrossings('acme', covering, held, after).map((c) => c.crossingId));
          lines = after;
        }
        const total = lines[0]!.spent;
        const expected = [0.8, 0.9, 1].filter((at) => total >= at * 1000);
        expect(ids).toEqual(expected.map((at) => budgetCrossingId('acme', 'run-tokens', 'run-7', 'run', at)));
      }),
    );
  });
});
