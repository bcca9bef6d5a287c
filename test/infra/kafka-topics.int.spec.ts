import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Admin } from 'kafkajs';
import {
  TopicMismatchError,
  createTopic,
  ensureTopics,
  partitionCounts,
  randomTopic,
  testKafka,
} from '@tokencircuit/testing';

describe('ensureTopics, which the global setup runs on every start', () => {
  let admin: Admin;
  beforeAll(async () => {
    admin = testKafka().admin();
    await admin.connect();
  });
  afterAll(async () => {
    await admin.disconnect();
  });

  it('creates missing topics, and running it again changes nothing', async () => {
    const specs = [
      { name: randomTopic('ensure-a'), partitions: 3 },
      { name: randomTopic('ensure-b'), partitions: 1 },
    ];
    await ensureTopics(admin, specs);
    await ensureTopics(admin, specs);

    const counts = await partitionCounts(
      admin,
      specs.map((spec) => spec.name),
    );
    expect(Object.fromEntries(counts)).toEqual({ [specs[0]!.name]: 3, [specs[1]!.name]: 1 });
  });

  it('grows a topic that was auto-created with too few partitions', async () => {
    const name = await createTopic(randomTopic('ensure-grow'), 1);

    await ensureTopics(admin, [{ name, partitions: 4 }]);

    expect((await partitionCounts(admin, [name])).get(name)).toBe(4);
  });

  it('refuses a topic with more partitions than intended, since Kafka cannot shrink it', async () => {
    const name = await createTopic(randomTopic('ensure-shrink'), 3);

    await expect(ensureTopics(admin, [{ name, partitions: 2 }])).rejects.toThrow(TopicMismatchError);
    await expect(ensureTopics(admin, [{ name, partitions: 2 }])).rejects.toThrow(
      `topic ${name} has 3 partitions, expected 2: delete it or use a fresh broker`,
    );
  });

  it('rejects a partition count that is not a positive integer before touching the broker', async () => {
    await expect(ensureTopics(admin, [{ name: randomTopic('ensure-bad'), partitions: 0 }])).rejects.toThrow(
      /partitions must be a positive integer, got 0/,
    );
  });
});
