import kafkajs, { type Admin } from 'kafkajs';

// kafkajs is CommonJS: a named value import fails under Node's ESM loader (tsx benches), only types are named.
const { ConfigResourceTypes } = kafkajs;
import { dlqMaxMessageBytes } from '@tokencircuit/contracts';

/** A topic, the partition count it must have and its topic-level configs (TOPICS in contracts). */
export interface TopicSpec {
  readonly name: string;
  readonly partitions: number;
  readonly config?: Readonly<Record<string, string>>;
  /** max.message.bytes must be at least this other topic's plus headroom (a dead-letter topic). */
  readonly maxMessageBytesOf?: string;
}

/** max.message.bytes of existing topics, as the broker applies it (override or default). */
export async function maxMessageBytes(admin: Admin, names: readonly string[]): Promise<Map<string, number>> {
  if (names.length === 0) return new Map();
  const { resources } = await admin.describeConfigs({
    includeSynonyms: false,
    resources: names.map((name) => ({
      type: ConfigResourceTypes.TOPIC,
      name,
      configNames: ['max.message.bytes'],
    })),
  });
  return new Map(
    resources.map((r) => [
      r.resourceName,
      Number(r.configEntries.find((e) => e.configName === 'max.message.bytes')?.configValue),
    ]),
  );
}

/** Thrown when an existing topic has more partitions than intended: Kafka cannot shrink a topic. */
export class TopicMismatchError extends Error {
  override readonly name = 'TopicMismatchError';
}

/** Partition count of each existing topic among `names`; absent topics are left out. */
export async function partitionCounts(admin: Admin, names: readonly string[]): Promise<Map<string, number>> {
  const existing = new Set(await admin.listTopics());
  const present = names.filter((name) => existing.has(name));
  if (present.length === 0) return new Map();
  const { topics } = await admin.fetchTopicMetadata({ topics: present });
  return new Map(topics.map((topic) => [topic.name, topic.partitions.length]));
}

/**
 * Makes every topic exist with exactly its intended partition count; safe to run again and again.
 * A topic auto-created with fewer partitions (a producer wrote before setup ran) is grown; one with
 * more is an error, because partition counts decide key → partition placement.
 */
export async function ensureTopics(admin: Admin, specs: readonly TopicSpec[]): Promise<void> {
  for (const spec of specs) {
    if (!Number.isInteger(spec.partitions) || spec.partitions < 1) {
      throw new RangeError(`topic ${spec.name}: partitions must be a positive integer, got ${spec.partitions}`);
    }
  }
  const before = await partitionCounts(
    admin,
    specs.map((spec) => spec.name),
  );
  const missing = specs.filter((spec) => !before.has(spec.name));
  if (missing.length > 0) {
    // createTopics resolves false (no throw) when a concurrent run created a topic first: that is fine.
    await admin.createTopics({
      waitForLeaders: true,
      topics: missing.map((spec) => ({
        topic: spec.name,
        numPartitions: spec.partitions,
        configEntries: Object.entries(spec.config ?? {}).map(([name, value]) => ({ name, value })),
      })),
    });
  }
  await ensureMessageBytes(admin, specs);
  const grow = specs.filter((spec) => (before.get(spec.name) ?? spec.partitions) < spec.partitions);
  if (grow.length > 0) {
    await admin.createPartitions({
      topicPartitions: grow.map((spec) => ({ topic: spec.name, count: spec.partitions })),
    });
  }
  const after = await partitionCounts(
    admin,
    specs.map((spec) => spec.name),
  );
  for (const spec of specs) {
    const actual = after.get(spec.name);
    if (actual !== spec.partitions) {
      throw new TopicMismatchError(
        `topic ${spec.name} has ${actual ?? 'no'} partitions, expected ${spec.partitions}` +
          (actual !== undefined && actual > spec.partitions ? ': delete it or use a fresh broker' : ''),
      );
    }
  }
}

/**
 * Raises max.message.bytes where a topic accepts less than its spec (or, for a dead-letter topic, less
 * than its source topic plus headroom): a topic created before its config was data keeps the default.
 * Never lowers a limit an operator raised.
 */
async function ensureMessageBytes(admin: Admin, specs: readonly TopicSpec[]): Promise<void> {
  const names = [...new Set(specs.flatMap((s) => (s.maxMessageBytesOf ? [s.name, s.maxMessageBytesOf] : [s.name])))];
  const existing = new Set(await admin.listTopics());
  const current = await maxMessageBytes(
    admin,
    names.filter((name) => existing.has(name)),
  );
  for (const spec of specs) {
    const declared = Number(spec.config?.['max.message.bytes'] ?? 0);
    const source = spec.maxMessageBytesOf ? (current.get(spec.maxMessageBytesOf) ?? 0) : 0;
    const wanted = Math.max(declared, source > 0 ? dlqMaxMessageBytes(source) : 0);
    const have = current.get(spec.name) ?? 0;
    if (wanted > have) {
      // alterConfigs replaces the topic's overrides as a set: carry the declared ones along.
      await admin.alterConfigs({
        validateOnly: false,
        resources: [
          {
            type: ConfigResourceTypes.TOPIC,
            name: spec.name,
            configEntries: Object.entries({ ...spec.config, 'max.message.bytes': String(wanted) }).map(
              ([name, value]) => ({ name, value }),
            ),
          },
        ],
      });
    }
  }
}
