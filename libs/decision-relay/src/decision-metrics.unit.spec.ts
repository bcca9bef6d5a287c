import { describe, expect, it } from 'vitest';
import { DecisionMetrics } from './decision-metrics.js';

const depthIn = (exposition: string) => /^tokencircuit_decision_outbox_depth (\d+)$/m.exec(exposition)?.[1];

describe('the outbox depth gauge', () => {
  it('is counted when the metrics are scraped, each scrape asking again', async () => {
    const metrics = new DecisionMetrics();
    let pending = 7;
    let asked = 0;
    metrics.countPendingWith(async () => {
      asked += 1;
      return pending;
    });
    expect(asked).toBe(0);
    expect(depthIn(await metrics.registry.metrics())).toBe('7');
    pending = 0;
    expect(depthIn(await metrics.registry.metrics())).toBe('0');
    expect(asked).toBe(2);
  });

  it('keeps the last known depth when counting fails (database down), and the scrape still answers', async () => {
    const metrics = new DecisionMetrics();
    let fail = false;
    metrics.countPendingWith(async () => {
      if (fail) throw new Error('connection refused');
      return 3;
    });
    expect(depthIn(await metrics.registry.metrics())).toBe('3');
    fail = true;
    expect(depthIn(await metrics.registry.metrics())).toBe('3');
  });
});

describe('the budget publications gauge', () => {
  const pendingIn = (exposition: string) =>
    /^tokencircuit_decision_budget_publications_pending (\d+)$/m.exec(exposition)?.[1];

  it('is counted when scraped, and keeps the last known count when counting fails', async () => {
    const metrics = new DecisionMetrics();
    let pending: number | Error = 2;
    metrics.countBudgetPendingWith(async () => {
      if (pending instanceof Error) throw pending;
      return pending;
    });
    expect(pendingIn(await metrics.registry.metrics())).toBe('2');
    pending = 0;
    expect(pendingIn(await metrics.registry.metrics())).toBe('0');
    pending = new Error('connection refused');
    expect(pendingIn(await metrics.registry.metrics())).toBe('0');
  });
});
