import type { Logger } from 'pino';
import { START_EXIT, StartupError, type KafkaConnection } from '@tokencircuit/config';
import { connectAdmin } from './connect-admin.js';
import { ensureTopics, type TopicFinding } from './ensure-topics.js';
import type { TopicSettings } from './topic-settings.js';

/**
 * What every service does with Kafka before it builds its modules: reach the cluster within the
 * timeout, create or validate every topic of the product (one definition for all services), log what
 * it found. A missing topic in validate mode, or an unreachable cluster, stops the start with one line.
 */
export async function prepareTopics(
  connection: KafkaConnection,
  settings: TopicSettings,
  log: Logger,
): Promise<TopicFinding[]> {
  const admin = await connectAdmin(connection, settings.connectTimeoutMs);
  try {
    const findings = await ensureTopics(admin, Object.values(settings.topics), {
      create: settings.mode === 'create',
      replicationFactor: settings.replicationFactor,
    });
    for (const f of findings) {
      if (f.status === 'ok' || f.status === 'created') log.info({ topic: f.topic }, `topic ${f.status}: ${f.detail}`);
      else log.warn({ topic: f.topic, status: f.status }, `topic ${f.topic} ${f.detail}`);
    }
    const missing = findings.filter((f) => f.status === 'missing').map((f) => f.topic);
    if (missing.length > 0) {
      throw new StartupError(
        START_EXIT.topics,
        `missing Kafka topic(s) ${missing.join(', ')}: run "npx tokencircuit topics ensure" or set KAFKA_TOPICS=create`,
      );
    }
    return findings;
  } finally {
    await admin.disconnect().catch(() => undefined);
  }
}
