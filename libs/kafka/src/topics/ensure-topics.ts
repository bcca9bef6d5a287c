import kafkajs, { type Admin } from 'kafkajs';
import type { TopicDefinition } from '@tokencircuit/contracts';
import { retryAtStart } from '../start-up-retry.js';

/** What ensureTopics found or did for one topic. */
export interface TopicFinding {
  readonly topic: string;
  /**
   * created · ok · missing (not created: validate mode) · fewer_partitions (keys would move if it grew, so
   * it is reported, not grown) · config_differs (retention, max.message.bytes or cleanup.policy).
   */
  readonly status: 'created' | 'ok' | 'missing' | 'fewer_partitions' | 'config_differs';
  readonly detail: string;
}

export interface EnsureOptions {
  readonly create: boolean;
  /** null: min(3, brokers in the cluster). */
  readonly replicationFactor: number | null;
}

// kafkajs is CommonJS and Node's ESM loader cannot see this export by name.
const { ConfigResourceTypes } = kafkajs;

const configEntriesOf = (t: TopicDefinition) => ({
  'retention.ms': String(t.retentionMs),
  'max.message.bytes': String(t.maxMessageBytes),
  'cleanup.policy': t.cleanupPolicy,
});

/**
 * Creates the missing topics with their partitions, replication factor and configs, and checks the
 * existing ones against their definitions. Safe to run again and again, and concurrently (a topic
 * created by someone else in between is simply found). It never shrinks, grows or reconfigures a
 * topic that exists: that is an operator's decision, so it is reported instead.
 */
export async function ensureTopics(
  admin: Admin,
  topics: readonly TopicDefinition[],
  options: EnsureOptions,
): Promise<TopicFinding[]> {
  // Every call is retried while the cluster is electing (a new cluster, a new topic): retryAtStart.
  const existing = new Set(await retryAtStart('listing topics', () => admin.listTopics()));
  const missing = topics.filter((t) => !existing.has(t.name));
  const created = new Set<string>();
  if (missing.length > 0 && options.create) {
    const { brokers } = await retryAtStart('describing the cluster', () => admin.describeCluster());
    const replicationFactor = options.replicationFactor ?? Math.min(3, brokers.length);
    // Safe to repeat: a topic created by an earlier attempt (or by someone else) is found, not an error.
    await retryAtStart(`creating topics ${missing.map((t) => t.name).join(', ')}`, () =>
      admin.createTopics({
        waitForLeaders: true,
        topics: missing.map((t) => ({
          topic: t.name,
          numPartitions: t.partitions,
          replicationFactor,
          configEntries: Object.entries(configEntriesOf(t)).map(([name, value]) => ({ name, value })),
        })),
      }),
    );
    for (const t of missing) created.add(t.name);
  }
  const present = topics.filter((t) => existing.has(t.name) || created.has(t.name));
  const partitions = new Map<string, number>();
  const configs = new Map<string, Map<string, string>>();
  if (present.length > 0) {
    const { topics: metadata } = await retryAtStart('reading topic metadata', () =>
      admin.fetchTopicMetadata({ topics: present.map((t) => t.name) }),
    );
    for (const m of metadata) partitions.set(m.name, m.partitions.length);
    const described = await retryAtStart('reading topic configs', () =>
      admin.describeConfigs({
        includeSynonyms: false,
        resources: present.map((t) => ({
          type: ConfigResourceTypes.TOPIC,
          name: t.name,
          configNames: Object.keys(configEntriesOf(t)),
        })),
      }),
    );
    for (const resource of described.resources) {
      configs.set(resource.resourceName, new Map(resource.configEntries.map((c) => [c.configName, c.configValue])));
    }
  }
  return topics.map((t): TopicFinding => {
    if (!existing.has(t.name) && !created.has(t.name)) {
      return { topic: t.name, status: 'missing', detail: 'does not exist (KAFKA_TOPICS=validate: not created)' };
    }
    const actual = partitions.get(t.name) ?? 0;
    if (actual < t.partitions) {
      return {
        topic: t.name,
        status: 'fewer_partitions',
        detail: `has ${actual} partition(s), configured ${t.partitions}: consumers can scale only to ${actual}; growing it moves keys between partitions, so it is left to you (kafka-topics --alter)`,
      };
    }
    const wanted = configEntriesOf(t);
    const have = configs.get(t.name) ?? new Map<string, string>();
    const differs = Object.entries(wanted)
      .filter(([name, value]) => have.get(name) !== value)
      .map(([name, value]) => `${name}=${have.get(name) ?? '∅'} (configured ${value})`);
    if (differs.length > 0) return { topic: t.name, status: 'config_differs', detail: differs.join(', ') };
    const shape = `${actual} partition(s), retention.ms=${t.retentionMs}, max.message.bytes=${t.maxMessageBytes}`;
    return created.has(t.name)
      ? { topic: t.name, status: 'created', detail: shape }
      : { topic: t.name, status: 'ok', detail: shape };
  });
}
