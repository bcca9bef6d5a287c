import type { INestApplication } from '@nestjs/common';
import type { Admin } from 'kafkajs';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAgentEvent, type AgentEvent } from '@tokencircuit/contracts';
import { toolCall } from '@tokencircuit/contracts/testing';
import { composeKafkaPostgresModule } from '@tokencircuit/composition';
import { loadConfig } from '@tokencircuit/governance';
import {
  createTestDatabase,
  createTopic,
  randomGroupId,
  randomTopic,
  testKafka,
  waitFor,
  type TestDatabase,
} from '@tokencircuit/testing';
import { decisionEnv } from '../decision/support/decision-harness.js';
import { startKafkaDoor, type KafkaDoor } from './support/kafka-door.js';
import { runTokensPage, startOnCallSink, type OnCallSink } from './support/on-call-sink.js';
import { pagedRunBudget } from './support/run-budget.js';

/**
 * The Kafka door's page reaches the on-call sink (issue 31): an agent publishes its outcomes to Kafka itself; the
 * projector (logged in as its own role) settles the usage and appends the budget crossings with their pending
 * budget_publications rows; the decision service's relay publishes the stored steps to the episodes topic; the
 * production notifier, routing `level: page`, delivers the page to a webhook receiver started here — once, also
 * when the outcome is delivered again and when the relay publishes the same step a second time (a relay that
 * crashed after its publish and before its commit: the row is pending again).
 */
const policy = loadConfig({ spend: { budgets: [pagedRunBudget()], reservationTtlSeconds: 600 } });

describe('a budget page crossed through the Kafka door reaches the on-call sink (projector, relay, notifier)', () => {
  let db: TestDatabase;
  let door: KafkaDoor;
  let admin: Admin;
  let decision: INestApplication | undefined;
  let onCall: OnCallSink | undefined;
  let episodesTopic: string;
  const notifierGroup = randomGroupId('door-page-notifier');
  const publish = (...events: AgentEvent[]) => door.publish(...events);

  beforeAll(async () => {
    db = await createTestDatabase('tc_spend_door_page');
    door = await startKafkaDoor(db, policy, 'door-page');
    episodesTopic = await createTopic(randomTopic('door-page-episodes'), 1);
    const interventionsTopic = await createTopic(randomTopic('door-page-interventions'), 1);
    admin = testKafka().admin();
    await admin.connect();
    decision = await composeKafkaPostgresModule<INestApplication>(
      'decision',
      { ...decisionEnv({ databaseUrl: db.url, interventionsTopic }), EPISODES_TOPIC: episodesTopic },
      policy,
      pino({ level: process.env.TEST_LOG_LEVEL ?? 'error' }),
    );
    onCall = await startOnCallSink(db.url, episodesTopic, { NOTIFIER_GROUP_ID: notifierGroup });
  });
  afterAll(async () => {
    await onCall?.close();
    await decision?.close();
    await door?.stop();
    await admin?.disconnect();
    await db?.drop();
  });

  /** Both crossings (advice and page) recorded, and all of them published. */
  const allPublished = async () => {
    const rows = await publications();
    return rows.length === 2 && rows.every((p) => p.published);
  };

  const publications = async () =>
    (
      await db.pool.query<{ intervention_id: string; published: boolean }>(
        `SELECT intervention_id, published_at IS NOT NULL AS published FROM budget_publications ORDER BY created_at`,
      )
    ).rows;

  /** Episode steps on the topic (its high watermark) and how far the notifier's group has committed. */
  const episodesOnTopic = async () => Number((await admin.fetchTopicOffsets(episodesTopic))[0]!.high);
  const notifierCommitted = async () => {
    const [offsets] = await admin.fetchOffsets({ groupId: notifierGroup, topics: [episodesTopic] });
    return Number(offsets?.partitions[0]?.offset ?? -1);
  };

  it('the page is delivered once: after a redelivered outcome and after the relay publishes the step again', async () => {
    const call = toolCall({ run: 'run-door-page', callId: 'door-page-1', intentId: 'door-page-1', tool: 'llm.chat' });
    // 9,200 of the run's 10,000 tokens in one call: past 80 % (advice) and 90 % (the page) at once.
    const outcome = parseAgentEvent({
      type: 'tool_call.outcome',
      id: 'out-door-page-1',
      tenant: 'acme',
      time: new Date().toISOString(),
      data: { call, status: 'succeeded', usage: { model: 'gpt-4o-mini', inputTokens: 9_000, outputTokens: 200 } },
    });
    await publish(outcome);

    const page = runTokensPage('run-door-page');
    const delivered = await onCall!.firstPage();
    expect(delivered).toMatchObject({
      data: {
        ...page,
        artifact: { spend_budget: { budget_id: 'run-tokens', threshold: 0.9, level: 'page', crossed_by: 'settle' } },
      },
    });
    await waitFor(allPublished, {
      maxWait: 30_000,
      name: 'both crossings marked published',
    });
    expect(await publications()).toHaveLength(2);

    // Delivered again: nothing new is appended, nothing new is pending.
    await publish(outcome);
    expect(await publications()).toHaveLength(2);

    // The relay crashed after publishing and before committing: both rows pending again, published again.
    await db.pool.query(`UPDATE budget_publications SET published_at = NULL`);
    await waitFor(allPublished, {
      maxWait: 30_000,
      name: 'both crossings published again',
    });
    // Four steps on the topic now (each twice); the notifier has read all of them.
    expect(await episodesOnTopic()).toBe(4);
    await waitFor(async () => (await notifierCommitted()) >= 4, {
      maxWait: 30_000,
      name: "the notifier's commit past the republished steps",
    });
    expect(onCall!.hook.requests).toHaveLength(1);
    expect(await onCall!.sentDeliveries(db.pool, page.episodeId)).toBe(1);
  });
});
