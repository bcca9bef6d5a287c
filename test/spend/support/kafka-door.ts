import pg from 'pg';
import pino from 'pino';
import type { Producer } from 'kafkajs';
import { agentEventRecord, TOPICS, type AgentEvent } from '@tokencircuit/contracts';
import type { TokenCircuitConfig } from '@tokencircuit/governance';
import { ProjectionPipeline } from '@tokencircuit/projection';
import { pgDatabase, readCheckpoints, SERVICE_ROLES, setServiceRolePasswords } from '@tokencircuit/storage';
import { ensureTopics, randomGroupId, randomTopic, testKafka, waitFor, type TestDatabase } from '@tokencircuit/testing';
import { KafkaDeadLetterSink } from '../../../libs/projector-service/src/kafka-dead-letter-sink.js';
import { KafkaEventSource } from '../../../libs/projector-service/src/kafka-event-source.js';
import { SPEC_SOURCE_SETTINGS } from '../../projector/support/projector-harness.js';

/** The password every service role logs in with in these specs. */
export const SERVICE_ROLE_PASSWORD = 'tc-test-service-role-password';

/** The Kafka door as an agent that talks to Kafka itself sees it: a topic, and the projector that settles from it. */
export interface KafkaDoor {
  readonly topic: string;
  /** Publishes like such an agent; resolves once the projector's checkpoint is past what was sent. */
  publish(...events: AgentEvent[]): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Gives `db`'s service roles their password and starts the projector in-process on a fresh agent-events topic (one
 * partition, its dead-letter topic beside it), logged in as its own role (tokencircuit_projector) and folding with
 * `policy`: the path a record an agent publishes to Kafka takes.
 */
export async function startKafkaDoor(db: TestDatabase, policy: TokenCircuitConfig, name: string): Promise<KafkaDoor> {
  await setServiceRolePasswords(
    db.url,
    Object.fromEntries(SERVICE_ROLES.map(({ passwordVariable }) => [passwordVariable, SERVICE_ROLE_PASSWORD])),
  );
  const url = new URL(db.url);
  url.username = 'tokencircuit_projector';
  url.password = SERVICE_ROLE_PASSWORD;
  const projectorPool = new pg.Pool({ connectionString: url.toString(), max: 3 });
  const topic = randomTopic(name);
  const dlqTopic = randomTopic(`${name}-dlq`);
  const groupId = randomGroupId(name);
  const kafka = testKafka();
  const admin = kafka.admin();
  await admin.connect();
  try {
    await ensureTopics(admin, [
      { ...TOPICS.agentEvents, name: topic, partitions: 1 },
      { ...TOPICS.agentEventsDlq, name: dlqTopic, maxMessageBytesOf: topic },
    ]);
  } finally {
    await admin.disconnect();
  }
  const producer: Producer = kafka.producer({ allowAutoTopicCreation: false });
  await producer.connect();
  const projectorDb = pgDatabase(projectorPool);
  const pipeline = new ProjectionPipeline(projectorDb, new KafkaDeadLetterSink(producer, dlqTopic), policy, groupId);
  const source = new KafkaEventSource(
    kafka,
    { topic, groupId, ...SPEC_SOURCE_SETTINGS },
    pino({ level: 'silent' }),
    `${name} spec`,
  );
  await source.start(pipeline, { checkpoints: (t) => readCheckpoints(projectorDb, groupId, t) });
  let sent = 0;
  return {
    topic,
    async publish(...events) {
      await producer.send({ topic, acks: -1, messages: events.map((e) => agentEventRecord(e, 'binary')) });
      sent += events.length;
      const target = BigInt(sent);
      await waitFor(async () => ((await readCheckpoints(pgDatabase(db.pool), groupId, topic)).get(0) ?? 0n) >= target, {
        name: `the projector's checkpoint at ${sent}`,
        maxWait: 30_000,
      });
    },
    async stop() {
      await source.stop();
      await producer.disconnect();
      await projectorPool.end();
    },
  };
}
