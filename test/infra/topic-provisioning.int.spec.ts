import { randomUUID } from 'node:crypto';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Admin } from 'kafkajs';
import { START_EXIT, StartupError, type KafkaConnection } from '@tokencircuit/config';
import { ensureTopics, loadTopicSettings, prepareTopics } from '@tokencircuit/kafka';
import { testBrokers, testKafka } from '@tokencircuit/testing';

const silent = pino({ level: 'silent' });

/** Topic variables with names no other run uses: a broker that has none of these topics yet. */
function freshEnv(extra: Record<string, string> = {}): Record<string, string> {
  const prefix = `tc-topics-${randomUUID().slice(0, 8)}`;
  return {
    AGENT_EVENTS_TOPIC: `${prefix}.agent-events`,
    DLQ_TOPIC: `${prefix}.dlq`,
    INTERVENTIONS_TOPIC: `${prefix}.interventions`,
    EPISODES_TOPIC: `${prefix}.episodes`,
    AUDIT_ANCHORS_TOPIC: `${prefix}.audit-anchors`,
    NOTIFIER_DLQ_TOPIC: `${prefix}.notifier-dlq`,
    ...extra,
  };
}

describe('topic provisioning against the real broker (one definition for the CLI and every service)', () => {
  let admin: Admin;
  let connection: KafkaConnection;
  beforeAll(async () => {
    admin = testKafka().admin();
    await admin.connect();
    connection = { brokers: testBrokers(), clientId: 'tc-topics-test', ssl: false, sasl: null };
  });
  afterAll(async () => {
    await admin.disconnect();
  });

  it('creates every topic with its partitions and configs, the DLQ accepting more than its source; again is a no-op', async () => {
    const settings = loadTopicSettings(freshEnv());
    const topics = Object.values(settings.topics);
    const first = await ensureTopics(admin, topics, { create: true, replicationFactor: null });
    expect(first.map((f) => f.status)).toEqual(['created', 'created', 'created', 'created', 'created', 'created']);
    const second = await ensureTopics(admin, topics, { create: true, replicationFactor: null });
    expect(second.map((f) => f.status)).toEqual(['ok', 'ok', 'ok', 'ok', 'ok', 'ok']);

    const { topics: metadata } = await admin.fetchTopicMetadata({ topics: topics.map((t) => t.name) });
    const partitionsOf = new Map(metadata.map((t) => [t.name, t.partitions.length]));
    expect(topics.map((t) => partitionsOf.get(t.name))).toEqual([6, 1, 6, 6, 1, 1]);
    const dlq = settings.topics.agentEventsDlq;
    const source = settings.topics.agentEvents;
    expect(dlq.maxMessageBytes).toBeGreaterThan(source.maxMessageBytes);
    expect(second[1]!.detail).toContain(`max.message.bytes=${dlq.maxMessageBytes}`);
  });

  it('reports an existing topic with fewer partitions than configured, and one whose configs differ, without changing them', async () => {
    const env = freshEnv();
    const settings = loadTopicSettings(env);
    const topics = Object.values(settings.topics);
    await admin
      .createTopics({
        waitForLeaders: true,
        topics: [
          { topic: settings.topics.agentEvents.name, numPartitions: 1 }, // what an auto-created topic looks like
          {
            topic: settings.topics.interventions.name,
            numPartitions: 6,
            configEntries: [{ name: 'retention.ms', value: '1000' }],
          },
        ],
      })
      // Created; KRaft may answer the leader wait with this while the metadata propagates (ensureTopics waits it out).
      .catch((error: { type?: string }) => {
        if (error.type !== 'UNKNOWN_TOPIC_OR_PARTITION') throw error;
      });
    const findings = await ensureTopics(admin, topics, { create: true, replicationFactor: null });
    expect(findings.map((f) => f.status)).toEqual([
      'fewer_partitions',
      'created',
      'config_differs',
      'created',
      'created',
      'created',
    ]);
    expect(findings[0]!.detail).toMatch(/^has 1 partition\(s\), configured 6/);
    expect(findings[2]!.detail).toContain('retention.ms=1000 (configured 604800000)');
    const { topics: metadata } = await admin.fetchTopicMetadata({ topics: [settings.topics.agentEvents.name] });
    expect(metadata[0]!.partitions).toHaveLength(1);
  });

  it('in validate mode creates nothing and stops the start with one line naming the missing topics (exit 6)', async () => {
    const env = freshEnv({ KAFKA_TOPICS: 'validate' });
    const settings = loadTopicSettings(env);
    const error = await prepareTopics(connection, settings, silent).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StartupError);
    expect((error as StartupError).exitCode).toBe(START_EXIT.topics);
    expect((error as StartupError).message).toBe(
      `missing Kafka topic(s) ${Object.values(settings.topics)
        .map((t) => t.name)
        .join(', ')}: run "npx tokencircuit topics ensure" or set KAFKA_TOPICS=create`,
    );
    expect((await admin.listTopics()).filter((t) => t.startsWith(env.AGENT_EVENTS_TOPIC!.split('.')[0]!))).toEqual([]);
  });

  it('gives up on an unreachable broker within KAFKA_CONNECT_TIMEOUT_MS with exit 3 and the cause', async () => {
    const settings = loadTopicSettings(freshEnv({ KAFKA_CONNECT_TIMEOUT_MS: '2000' }));
    const error = await prepareTopics({ ...connection, brokers: ['127.0.0.1:1'] }, settings, silent).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(StartupError);
    expect((error as StartupError).exitCode).toBe(START_EXIT.kafka);
    expect((error as StartupError).message).toMatch(
      /^Kafka at 127\.0\.0\.1:1 is unreachable: .*ECONNREFUSED.*check KAFKA_BROKERS/,
    );
  });

  it('refuses a DLQ that would accept less than its source topic', () => {
    expect(() =>
      loadTopicSettings({ KAFKA_MAX_MESSAGE_BYTES: '2000000', KAFKA_DLQ_MAX_MESSAGE_BYTES: '1000000' }),
    ).toThrow(/KAFKA_DLQ_MAX_MESSAGE_BYTES: must be at least KAFKA_MAX_MESSAGE_BYTES \(2000000\)/);
  });
});
