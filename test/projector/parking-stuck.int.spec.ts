import type { INestApplication } from '@nestjs/common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentEventRecord } from '@tokencircuit/contracts';
import { createTestDatabase, generateTrace, waitFor, type TestDatabase } from '@tokencircuit/testing';
import { readCheckpoints } from '@tokencircuit/storage';
import { provisionProjectorTarget, startProjectorInProcess } from './support/projector-harness.js';
import { kcatProduce, requireKcat } from './support/kcat.js';

function sample(metrics: string, name: string, partition: number): number | undefined {
  const line = metrics.split('\n').find((l) => l.startsWith(`${name}{partition="${partition}"}`));
  return line === undefined ? undefined : Number(line.split(' ').pop());
}

// A failure while parking (the dead-letter topic refuses even the truncated copy) was retried forever, the
// partition silently held. Now: a bounded number of attempts, then that partition alone is paused and
// reported stuck with the reason, in readiness and in metrics; the other partitions go on.
describe('a record that cannot be parked (kcat, real Kafka, real Postgres)', () => {
  let db: TestDatabase;
  let app: INestApplication | undefined;
  beforeAll(async () => {
    requireKcat();
    db = await createTestDatabase('parking_stuck');
  });
  afterAll(async () => {
    await app?.close();
    await db?.drop();
  });

  it('is retried a bounded number of times, then its partition is stuck with the reason in health and metrics', async () => {
    const target = await provisionProjectorTarget(db.url, 'parking-stuck', {
      partitions: 2,
      // An operator's mistake: a dead-letter topic too small for even the truncated copy.
      dlqConfig: { 'max.message.bytes': '64' },
    });
    const events = generateTrace({ events: 12, seed: 2803, tenants: 1 }).slice(0, 12);
    const line = (i: number) => {
      const record = agentEventRecord(events[i]!, 'structured');
      return { key: String(record.key), value: String(record.value) };
    };
    const structured: [string, string][] = [['content-type', 'application/cloudevents+json']];
    // Partition 0: two events, a poison record, two more. Partition 1: valid events only.
    kcatProduce(target.topic, [line(0), line(1)], { headers: structured, partition: 0 });
    kcatProduce(target.topic, [{ key: 'poison', value: '{"specversion":' }], { headers: structured, partition: 0 });
    kcatProduce(target.topic, [line(2), line(3)], { headers: structured, partition: 0 });
    kcatProduce(
      target.topic,
      events.slice(4).map((_, i) => line(4 + i)),
      { headers: structured, partition: 1 },
    );

    app = await startProjectorInProcess(target, undefined, {
      PROJECTOR_PARKING_ATTEMPTS: '3',
      PROJECTOR_WATCH_INTERVAL_MS: '200',
    });
    const url = await app.getUrl();
    const details = await waitFor(
      async () => {
        const ready = await fetch(`${url}/health/ready`);
        const body = (await ready.json()) as { parkingStuck?: { partition: number }[] };
        return ready.status === 503 && (body.parkingStuck?.length ?? 0) > 0 ? body : undefined;
      },
      { maxWait: 90_000, interval: 250, name: 'readiness to report partition 0 stuck on parking' },
    );
    const stuck = (details as { parkingStuck: { partition: number; reason: string; attempts: number }[] }).parkingStuck;
    expect(stuck).toHaveLength(1);
    expect(stuck[0]).toMatchObject({ partition: 0, attempts: 3 });
    expect(stuck[0]!.reason).toMatch(/dead-letter sink failed: .*larger than the max message size/);

    const metrics = await fetch(`${url}/metrics`).then((r) => r.text());
    expect(sample(metrics, 'tokencircuit_projector_parking_stuck', 0)).toBe(1);
    expect(sample(metrics, 'tokencircuit_projector_parking_stuck', 1)).toBe(0);

    // Partition 1 went on; partition 0 stopped before the poison record and skipped nothing.
    await waitFor(
      async () => ((await readCheckpoints(db.pool, target.groupId, target.topic)).get(1) === 8n ? true : undefined),
      { maxWait: 30_000, name: 'partition 1 applied to its end' },
    );
    const at = await readCheckpoints(db.pool, target.groupId, target.topic);
    expect(at.get(0) ?? 0n).toBeLessThanOrEqual(2n);
    const { rows } = await db.pool.query<{ id: string }>('SELECT id FROM agent_events');
    const ids = new Set(rows.map((r) => r.id));
    expect(ids.has(events[2]!.id) || ids.has(events[3]!.id), 'nothing after the unparked record applied').toBe(false);
    for (const event of events.slice(4)) expect(ids.has(event.id)).toBe(true);
  }, 150_000);
});
