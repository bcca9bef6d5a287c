import type { INestApplication } from '@nestjs/common';
import { afterEach, afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestDatabase,
  createTopic,
  generateTrace,
  randomGroupId,
  randomTopic,
  testBrokers,
  testKafka,
  waitFor,
  type TestDatabase,
} from '@tokencircuit/testing';
import { jsonLines, runCli, type CliRun } from '../cli/support/run-cli.js';
import {
  produceEvents,
  startProjectorInProcess,
  waitUntilCaughtUp,
  type ProjectorTarget,
} from './support/projector-harness.js';

async function recreate(topic: string): Promise<void> {
  const admin = testKafka().admin();
  await admin.connect();
  try {
    await admin.deleteTopics({ topics: [topic], timeout: 30_000 });
    await waitFor(async () => !(await admin.listTopics()).includes(topic), {
      maxWait: 30_000,
      name: `${topic} deleted`,
    });
  } finally {
    await admin.disconnect();
  }
  // Recreating can race the deletion's completion on the broker: retry until it takes.
  await waitFor(
    async () => {
      try {
        await createTopic(topic, 1);
        return true;
      } catch {
        return undefined;
      }
    },
    { maxWait: 30_000, interval: 500, name: `${topic} recreated` },
  );
}

/** How many of `events` are stored (the spec's two cases share a database). */
const stored = async (db: TestDatabase, events: readonly { id: string }[]) =>
  (
    await db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM agent_events WHERE id = ANY($1)', [
      events.map((e) => e.id),
    ])
  ).rows[0]!.n;

// Before: a recreated topic restarts at offset 0, below the stored checkpoint, and every new event was
// skipped as "already applied" while health stayed green.
describe('checkpoints bound to their topic (real Kafka: delete, recreate, produce)', () => {
  let db: TestDatabase;
  let app: INestApplication | undefined;
  beforeAll(async () => {
    db = await createTestDatabase('projector_topic_reset');
  });
  afterEach(async () => {
    await app?.close();
    app = undefined;
  });
  afterAll(async () => db?.drop());

  async function resetScenario(extra: Record<string, string> = {}) {
    const target: ProjectorTarget = {
      databaseUrl: db.url,
      topic: await createTopic(randomTopic('reset'), 1),
      dlqTopic: await createTopic(randomTopic('reset-dlq'), 1),
      groupId: randomGroupId('reset'),
    };
    // Cut to 60: generateTrace may return up to half as many again as asked (it finishes open calls), and a
    // recreated topic looks reset (high watermark below the checkpoint) only while it holds fewer records than
    // were applied before: 40 before, 20 after. An "after" of 40 or more made the CLI see no reset (CI, 12-02).
    const events = generateTrace({ events: 60, seed: Math.floor(Math.random() * 1e6) }).slice(0, 60);
    const before = events.slice(0, 40);
    const after = events.slice(40);
    await produceEvents(target.topic, before);
    app = await startProjectorInProcess(target, undefined, { PROJECTOR_WATCH_INTERVAL_MS: '500', ...extra });
    await waitUntilCaughtUp(db.pool, target, 30_000);
    expect(await stored(db, before)).toBe(before.length);
    await recreate(target.topic);
    await produceEvents(target.topic, after);
    return { target, before, after, events, url: await app.getUrl() };
  }

  it('stops with readiness failing instead of skipping; the CLI shows it and rebases; every event is applied', async () => {
    const { target, before, after, events, url } = await resetScenario();
    const status = await waitFor(
      async () => {
        const ready = await fetch(`${url}/health/ready`);
        const body = (await ready.json()) as Record<string, unknown>;
        return ready.status === 503 && JSON.stringify(body).includes('topicReset":[{') ? body : undefined;
      },
      { maxWait: 60_000, interval: 250, name: 'readiness to report the topic reset' },
    );
    expect(JSON.stringify(status)).toContain(`"checkpoint":"${before.length}"`);
    expect(await stored(db, after), 'nothing of the new topic applied yet, nor skipped').toBe(0);

    const env = {
      DATABASE_URL: db.url,
      KAFKA_BROKERS: testBrokers().join(','),
      PROJECTOR_GROUP_ID: target.groupId,
      AGENT_EVENTS_TOPIC: target.topic,
    };
    // Topic deletion is asynchronous on the broker: a fresh client's first offsets request may still be
    // answered from the old incarnation's log. An operator re-runs the command; so does the spec, and fails
    // if the reset never shows.
    let last: CliRun | null = null;
    const shown = await waitFor(
      async () => {
        last = await runCli(['checkpoints', 'show', '--json'], { env });
        return last.code === 1 ? last : undefined;
      },
      { maxWait: 30_000, interval: 1_000, name: 'the CLI to report the reset' },
    ).catch((error: unknown) => {
      throw new Error(`checkpoints show never reported the reset; last answer ${JSON.stringify(last)}`, {
        cause: error,
      });
    });
    expect(shown.code, shown.stderr).toBe(1);
    expect(jsonLines(shown.stdout)).toEqual([
      { partition: 0, checkpoint: String(before.length), low: '0', high: String(after.length), reset: true },
    ]);
    const rebased = await runCli(['checkpoints', 'rebase', '--json'], { env });
    expect(rebased.code, rebased.stderr).toBe(0);
    expect(jsonLines(rebased.stdout)).toEqual([
      { group: target.groupId, topic: target.topic, partition: 0, rebasedTo: '0' },
    ]);

    await app!.close();
    app = await startProjectorInProcess(target);
    await waitUntilCaughtUp(db.pool, target, 30_000);
    await waitFor(async () => ((await stored(db, events)) === events.length ? true : undefined), {
      maxWait: 30_000,
      name: 'the new topic applied',
    });
  }, 180_000);

  it('rebases on its own when PROJECTOR_REBASE_ON_TOPIC_RESET opts in', async () => {
    const { events } = await resetScenario({ PROJECTOR_REBASE_ON_TOPIC_RESET: 'true' });
    await waitFor(async () => ((await stored(db, events)) === events.length ? true : undefined), {
      maxWait: 60_000,
      name: 'the new topic applied after the automatic rebase',
    });
  }, 180_000);
});
