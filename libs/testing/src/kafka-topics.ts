import type { Admin } from 'kafkajs';

/** A topic and the partition count it must have. */
export interface TopicSpec {
  readonly name: string;
  readonly partitions: number;
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
      topics: missing.map((spec) => ({ topic: spec.name, numPartitions: spec.partitions })),
    });
  }
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
