import type { Producer } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KafkaInterventionPublisher } from '@tokencircuit/decision-service';
import { loadConfig } from '@tokencircuit/governance';
import { BudgetExceededError } from '@tokencircuit/sdk';
import {
  createTestDatabase,
  createTopic,
  randomTopic,
  testKafka,
  waitFor,
  type TestDatabase,
} from '@tokencircuit/testing';
import { ApiHarness } from '../api/support/api-harness.js';
import { runTokensPage, startOnCallSink, type OnCallSink } from './support/on-call-sink.js';
import { CHAT_ESTIMATE, chatUntilStopped, pagedRunBudget } from './support/run-budget.js';

/**
 * The page of a budget reaches the tenant's on-call sink: an agent loop spends tokens through the SDK over HTTP
 * (the real API and Postgres); the settle that takes the run past 90 % appends a page-level budget intervention,
 * the API publishes it and its episode step to Kafka, and the production notifier, routing `level: page`, signs
 * and delivers it to a webhook receiver started here. The 11th turn is refused with the budget artifact.
 */
const policy = loadConfig({ spend: { budgets: [pagedRunBudget()], estimates: CHAT_ESTIMATE } });

describe('a budget page reaches the on-call sink (SDK, API, Kafka, notifier, webhook)', () => {
  let db: TestDatabase;
  let producer: Producer;
  let api: ApiHarness;
  let onCall: OnCallSink | undefined;

  beforeAll(async () => {
    db = await createTestDatabase('tc_budget_page');
    const episodesTopic = await createTopic(randomTopic('budget-episodes'), 1);
    const interventionsTopic = await createTopic(randomTopic('budget-interventions'), 1);
    producer = testKafka().producer();
    await producer.connect();
    api = await ApiHarness.start({
      policy,
      database: db,
      budgetPublisher: new KafkaInterventionPublisher(producer, interventionsTopic, episodesTopic),
    });
    onCall = await startOnCallSink(db.url, episodesTopic);
  });
  afterAll(async () => {
    await onCall?.close();
    await api?.close();
    await producer?.disconnect();
    await db?.drop();
  });

  it('advised at 80 %, paged at 90 %, blocked at 100 %; the page is delivered once with the budget artifact', async () => {
    const { turns, stop, advice } = await chatUntilStopped(api, 'run-paged', { inputTokens: 800, outputTokens: 200 });
    expect(turns).toBe(11);
    expect(advice[0]).toMatchObject({ turn: 8, budget: { level: 'advise' } });
    expect(stop).toBeInstanceOf(BudgetExceededError);
    expect((stop as BudgetExceededError).budget.artifact).toMatchObject({ budget_id: 'run-tokens', level: 'block' });

    // The on-call sink gets the page (the route matches level page only: not the advice, not the block).
    const page = runTokensPage('run-paged');
    const delivered = await onCall!.firstPage();
    expect(delivered).toMatchObject({
      type: 'dev.tokencircuit.episode.escalated.v1',
      data: {
        ...page,
        previousLevel: 'advise',
        artifact: {
          failure_class: 'budget',
          next_allowed_action: 'summarise_and_stop',
          spend_budget: {
            budget_id: 'run-tokens',
            per: 'run',
            subject: 'run-paged',
            limit: 10_000,
            spent: 9_000,
            threshold: 0.9,
            level: 'page',
          },
        },
      },
    });
    // Delivered once: the delivery is recorded as sent, and no second page arrives for the same step.
    await waitFor(async () => (await onCall!.sentDeliveries(db.pool, page.episodeId)) === 1, {
      maxWait: 30_000,
      interval: 50,
      name: 'the page recorded as sent',
    });

    expect(onCall!.hook.requests).toHaveLength(1);
    // The API published them itself (its fast path) and marked their outbox rows: the relay has nothing left.
    const outbox = await db.pool.query<{ level: string; published: boolean }>(
      `SELECT i.level, p.published_at IS NOT NULL AS published
         FROM budget_publications p JOIN interventions i ON i.id = p.intervention_id ORDER BY i.seq`,
    );
    expect(outbox.rows).toEqual([
      { level: 'advise', published: true },
      { level: 'page', published: true },
      { level: 'block', published: true },
    ]);

    const view = (await (await api.as('acme', '/v1/dashboard/spend?subject=run-paged')).json()) as { lines: unknown[] };
    expect(view.lines).toEqual([expect.objectContaining({ budgetId: 'run-tokens', spent: 10_000, usedRatio: 1 })]);
  });
});
