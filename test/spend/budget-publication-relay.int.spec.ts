import type { Admin, Producer } from 'kafkajs';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { budgetCrossingId, loadConfig, type BudgetCrossing } from '@tokencircuit/governance';
import { BudgetPublicationRelay, KafkaInterventionPublisher } from '@tokencircuit/decision-service';
import {
  countPendingBudgetPublications,
  markBudgetPublished,
  pgDatabase,
  recordBudgetCrossings,
  SERVICE_ROLES,
  setServiceRolePasswords,
  type SqlDatabase,
} from '@tokencircuit/storage';
import { createTestDatabase, createTopic, randomTopic, testKafka, type TestDatabase } from '@tokencircuit/testing';
import { interventionRecorder } from '../decision/support/decision-harness.js';
import { pagedRunBudget } from './support/run-budget.js';

/**
 * The budget outbox (issue 31): every budget intervention recordBudgetCrossings appends is also a pending
 * budget_publications row, in the same transaction; the decision service's relay publishes the stored
 * intervention and episode step through its Kafka publisher and marks the row published before it commits.
 * A publish that fails leaves the row pending, and a later round publishes it, once.
 */
const policy = loadConfig({ spend: { budgets: [pagedRunBudget()] } });

const crossingOf = (run: string, threshold: number, level: 'advise' | 'page'): BudgetCrossing => ({
  crossingId: budgetCrossingId('acme', 'run-tokens', run, 'run', threshold),
  budgetId: 'run-tokens',
  per: 'run',
  subject: run,
  meter: 'tokens',
  window: 'run',
  windowKind: 'run',
  limit: 10_000,
  spent: 9_200,
  reserved: 0,
  threshold,
  level,
  nextAction: 'summarise_and_stop',
});

const PASSWORD = 'tc-test-service-role-password';
const ENV = Object.fromEntries(SERVICE_ROLES.map(({ passwordVariable }) => [passwordVariable, PASSWORD]));

describe('the budget publication relay', () => {
  let db: TestDatabase;
  let sql: SqlDatabase;
  /** The decision service's own login (a member of the writer role), as the relay runs in production. */
  let decisionPool: pg.Pool;
  let relayDb: SqlDatabase;
  let producer: Producer;
  let stopped: Producer;
  let admin: Admin;

  beforeAll(async () => {
    db = await createTestDatabase('tc_budget_relay');
    sql = pgDatabase(db.pool);
    await setServiceRolePasswords(db.url, ENV);
    const url = new URL(db.url);
    url.username = 'tokencircuit_decision';
    url.password = PASSWORD;
    decisionPool = new pg.Pool({ connectionString: url.toString(), max: 2 });
    relayDb = pgDatabase(decisionPool);
    const kafka = testKafka();
    producer = kafka.producer({ allowAutoTopicCreation: false });
    await producer.connect();
    // A producer that was connected and is no longer: its sends fail, as a broker outage fails them.
    stopped = kafka.producer({ allowAutoTopicCreation: false });
    await stopped.connect();
    await stopped.disconnect();
    admin = kafka.admin();
    await admin.connect();
  });
  afterAll(async () => {
    await admin?.disconnect();
    await producer?.disconnect();
    await decisionPool?.end();
    await db?.drop();
  });

  /** Appends the crossing as the settle would, in one transaction; returns the intervention ids appended. */
  async function record(run: string, crossings: BudgetCrossing[]): Promise<string[]> {
    const recorded = await sql.transaction((tx) =>
      recordBudgetCrossings(tx, policy.spend!, 'policy-v1', crossings, {
        tenant: 'acme',
        call: { run, agent: 'writer-bot', tool: 'llm.chat', principal: null, callId: `${run}-call` },
        causingEventIds: [`${run}-outcome`],
        crossedBy: 'settle',
        issuedAt: '2026-01-05T10:00:00.000Z',
      }),
    );
    return recorded.map((r) => r.intervention.interventionId);
  }

  const pendingIds = async (): Promise<string[]> =>
    (
      await db.pool.query<{ intervention_id: string }>(
        `SELECT intervention_id FROM budget_publications WHERE published_at IS NULL ORDER BY intervention_id`,
      )
    ).rows.map((r) => r.intervention_id);

  const messagesOn = async (topic: string): Promise<number> =>
    (await admin.fetchTopicOffsets(topic)).reduce((sum, p) => sum + Number(p.high) - Number(p.low), 0);

  it('a failed publish leaves the crossings pending; a later round publishes each once, with its step', async () => {
    const interventionsTopic = await createTopic(randomTopic('budget-relay-interventions'), 1);
    const episodesTopic = await createTopic(randomTopic('budget-relay-episodes'), 1);
    const ids = await record('run-relay', [
      crossingOf('run-relay', 0.8, 'advise'),
      crossingOf('run-relay', 0.9, 'page'),
    ]);
    expect(ids).toHaveLength(2);
    expect(await pendingIds()).toEqual([...ids].sort());
    // Appended again (a redelivered outcome): nothing new is appended, nothing new is pending.
    expect(await record('run-relay', [crossingOf('run-relay', 0.9, 'page')])).toEqual([]);

    const failing = new BudgetPublicationRelay(
      relayDb,
      new KafkaInterventionPublisher(stopped, interventionsTopic, episodesTopic),
      100,
      0,
    );
    await expect(failing.round()).rejects.toThrow(/disconnected/i);
    expect(await pendingIds()).toEqual([...ids].sort());
    expect(await messagesOn(interventionsTopic)).toBe(0);

    const recorder = await interventionRecorder(interventionsTopic);
    try {
      const relay = new BudgetPublicationRelay(
        relayDb,
        new KafkaInterventionPublisher(producer, interventionsTopic, episodesTopic),
        100,
        0,
      );
      expect(await relay.round()).toBe(2);
      expect(await pendingIds()).toEqual([]);
      // The next round finds nothing to publish.
      expect(await relay.round()).toBe(0);
      await recorder.waitForIds(ids);
      expect(await messagesOn(interventionsTopic)).toBe(2);
      expect(await messagesOn(episodesTopic)).toBe(2);
      const page = recorder.received.find((i) => i.level === 'page')!;
      expect(page).toMatchObject({
        tenant: 'acme',
        run: 'run-relay',
        keyId: 'budget|acme|run-tokens|run-relay|run',
        artifact: { failure_class: 'budget', spend_budget: { budget_id: 'run-tokens', level: 'page', threshold: 0.9 } },
      });
    } finally {
      await recorder.stop();
    }
  });

  it('leaves what a fast path marked published, and what is younger than its grace', async () => {
    const interventionsTopic = await createTopic(randomTopic('budget-relay-fast'), 1);
    const episodesTopic = await createTopic(randomTopic('budget-relay-fast-episodes'), 1);
    const [marked] = await record('run-fast', [crossingOf('run-fast', 0.8, 'advise')]);
    expect(await sql.transaction((tx) => markBudgetPublished(tx, [marked!]))).toBe(1);
    const [young] = await record('run-young', [crossingOf('run-young', 0.8, 'advise')]);
    const publisher = new KafkaInterventionPublisher(producer, interventionsTopic, episodesTopic);

    expect(await new BudgetPublicationRelay(relayDb, publisher, 100, 60_000).round()).toBe(0);
    expect(await pendingIds()).toEqual([young]);
    expect(await new BudgetPublicationRelay(relayDb, publisher, 100, 0).round()).toBe(1);
    expect(await countPendingBudgetPublications(sql)).toBe(0);
    expect(await messagesOn(interventionsTopic)).toBe(1);
  });
});
