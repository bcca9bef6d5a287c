import type { INestApplication } from '@nestjs/common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestDatabase,
  createTopic,
  generateTrace,
  randomGroupId,
  randomTopic,
  testKafka,
  waitFor,
  type TestDatabase,
} from '@tokencircuit/testing';
import {
  produceEvents,
  startProjectorInProcess,
  waitUntilCaughtUp,
  type ProjectorTarget,
} from './support/projector-harness.js';

/** A sample of `name{partition="p"}` from the Prometheus text. */
function sample(metrics: string, name: string, partition: number): number | undefined {
  const line = metrics.split('\n').find((l) => l.startsWith(`${name}{partition="${partition}"}`));
  return line === undefined ? undefined : Number(line.split(' ').pop());
}

// A partition retried on an infrastructure failure commits nothing: the lag must still grow from the
// broker's high watermark, a gauge must say how long it has been failing, and readiness must drop.
describe('a stuck partition is visible (real Kafka, real Postgres)', () => {
  let db: TestDatabase;
  let app: INestApplication | undefined;
  beforeAll(async () => {
    db = await createTestDatabase('projector_stuck');
  });
  afterAll(async () => {
    await app?.close();
    await db?.drop();
  });

  it('stuck seconds, lag from the high watermark and readiness while Postgres refuses every chunk', async () => {
    const target: ProjectorTarget = {
      databaseUrl: db.url,
      topic: await createTopic(randomTopic('stuck'), 1),
      dlqTopic: await createTopic(randomTopic('stuck-dlq'), 1),
      groupId: randomGroupId('stuck'),
    };
    const events = generateTrace({ events: 30, seed: 5 });
    await produceEvents(target.topic, events.slice(0, 10));
    app = await startProjectorInProcess(target, undefined, {
      PROJECTOR_WATCH_INTERVAL_MS: '200',
      PROJECTOR_STUCK_READINESS_SECONDS: '2',
    });
    await waitUntilCaughtUp(db.pool, target, 30_000);
    const url = await app.getUrl();
    const metrics = () => fetch(`${url}/metrics`).then((r) => r.text());

    // The deployment breaks (a table renamed away: SQLSTATE 42P01, the same for every record).
    await db.pool.query('ALTER TABLE agent_events RENAME TO agent_events_away');
    await produceEvents(target.topic, events.slice(10));

    const stuck = await waitFor(
      async () => {
        const ready = await fetch(`${url}/health/ready`);
        return ready.status === 503 ? ((await ready.json()) as { details?: unknown }) : undefined;
      },
      { maxWait: 60_000, interval: 200, name: 'readiness to fail on the stuck partition' },
    );
    expect(JSON.stringify(stuck)).toContain('"stuck":[{"partition":0');
    const text = await metrics();
    expect(sample(text, 'tokencircuit_projector_stuck_seconds', 0)).toBeGreaterThanOrEqual(2);
    const admin = testKafka().admin();
    await admin.connect();
    const { high } = (await admin.fetchTopicOffsets(target.topic))[0]!;
    await admin.disconnect();
    const { rows: at } = await db.pool.query<{ next: string }>(
      'SELECT next_offset::text AS next FROM projector_checkpoints WHERE consumer_group = $1',
      [target.groupId],
    );
    expect(Number(at[0]!.next), 'nothing committed since').toBeLessThan(Number(high));
    expect(sample(text, 'tokencircuit_projector_consumer_lag', 0)).toBe(Number(high) - Number(at[0]!.next));
    expect(text, 'an infrastructure failure parks nothing').not.toMatch(/^tokencircuit_projector_dlq_total\{/m);

    await db.pool.query('ALTER TABLE agent_events_away RENAME TO agent_events');
    await waitUntilCaughtUp(db.pool, target, 90_000);
    await waitFor(
      async () => {
        const after = await metrics();
        return sample(after, 'tokencircuit_projector_stuck_seconds', 0) === 0 &&
          sample(after, 'tokencircuit_projector_consumer_lag', 0) === 0
          ? true
          : undefined;
      },
      { maxWait: 10_000, interval: 200, name: 'stuck and lag back to 0' },
    );
    expect((await fetch(`${url}/health/ready`)).status).toBe(200);
    const { rows } = await db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM agent_events');
    expect(rows[0]!.n).toBe(events.length);
  }, 180_000);
});
