import type { INestApplication } from '@nestjs/common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AgentEvent } from '@tokencircuit/contracts';
import { agentEventRecord } from '@tokencircuit/contracts';
import {
  collectMessages,
  createTestDatabase,
  createTopic,
  generateTrace,
  randomGroupId,
  randomTopic,
  sendMessages,
  type TestDatabase,
} from '@tokencircuit/testing';
import { startProjectorInProcess, waitUntilCaughtUp, type ProjectorTarget } from './support/projector-harness.js';

type Raw = { key: string; value: string; headers: Record<string, string> };

/** The Kafka record an SDK would send for `event` (binary mode: attributes in ce_* headers). */
function recordOf(event: AgentEvent): Raw {
  const record = agentEventRecord(event);
  return { key: String(record.key), value: String(record.value), headers: record.headers as Record<string, string> };
}

const FORBIDDEN_TENANT = 'tenant-the-database-refuses';

/**
 * Records produced raw to Kafka (no SDK, no HTTP edge, no contract check on the way in), each one failing
 * at a different layer of the projection: the proof is about the pipeline, whatever the contract checks.
 */
function hostile(valid: AgentEvent): Record<string, Raw> {
  const base = recordOf(valid);
  const withHeader = (name: string, value: string, id: string): Raw => ({
    ...base,
    headers: { ...base.headers, ce_id: id, [name]: value },
  });
  const deep = '{"a":'.repeat(10_000) + '1' + '}'.repeat(10_000);
  const deepValue = base.value.replace(/^\{/, `{"nested":${deep},`);
  return {
    'year 0000': withHeader('ce_time', '0000-01-01T00:00:00Z', 'hostile-year-zero'),
    'UTC offset Postgres refuses': withHeader('ce_time', '2026-01-01T00:00:00+23:59', 'hostile-offset'),
    'JSON nested 10,000 levels in data': {
      ...base,
      value: deepValue,
      headers: { ...base.headers, ce_id: 'hostile-deep' },
    },
    'a row a database constraint refuses': recordOf({ ...valid, id: 'hostile-constraint', tenant: FORBIDDEN_TENANT }),
  };
}

describe('poison isolation in the projection pipeline (real Kafka, real Postgres)', () => {
  let db: TestDatabase;
  let app: INestApplication | undefined;

  beforeAll(async () => {
    db = await createTestDatabase('projector_isolation');
    // A constraint the contract knows nothing about, as a later migration or an operator could add.
    await db.pool.query(
      `ALTER TABLE agent_events ADD CONSTRAINT test_refuses_tenant CHECK (tenant <> '${FORBIDDEN_TENANT}')`,
    );
  });
  afterAll(async () => {
    await app?.close();
    await db?.drop();
  });

  it('parks each record Postgres or the code cannot project, with a reason, and commits every other one', async () => {
    const target: ProjectorTarget = {
      databaseUrl: db.url,
      topic: await createTopic(randomTopic('isolation'), 1),
      dlqTopic: await createTopic(randomTopic('isolation-dlq'), 1),
      groupId: randomGroupId('isolation'),
    };
    const valid = generateTrace({ events: 400, seed: 9 });
    const poison = hostile(valid[0]!);
    const names = Object.keys(poison);
    // One partition, poison spread through the valid traffic: every record shares a chunk with valid ones.
    const records: Raw[] = [];
    valid.forEach((event, i) => {
      records.push(recordOf(event));
      if (i % 100 === 50) records.push(poison[names[(i - 50) / 100]!]!);
    });
    await sendMessages(target.topic, records);

    app = await startProjectorInProcess(target);
    await waitUntilCaughtUp(db.pool, target, 60_000);

    const { rows } = await db.pool.query<{ id: string }>('SELECT id FROM agent_events');
    expect(new Set(rows.map((r) => r.id))).toEqual(new Set(valid.map((e) => e.id)));
    const parked = await collectMessages(target.dlqTopic, names.length, { maxWait: 30_000 });
    const byId = new Map(parked.map((m) => [m.headers['ce_id']?.toString(), m]));
    expect(parked).toHaveLength(names.length);
    for (const id of ['hostile-year-zero', 'hostile-offset', 'hostile-deep', 'hostile-constraint']) {
      const message = byId.get(id);
      expect(message, `${id} is parked`).toBeDefined();
      expect(message!.headers['tc-dlq-reason']?.toString(), `${id} says why`).toMatch(/\S/);
    }
    if (process.env.TEST_PRINT_REASONS) {
      for (const [id, m] of byId)
        console.log(id, m.headers['tc-dlq-code']?.toString(), m.headers['tc-dlq-reason']?.toString());
    }
    expect(byId.get('hostile-constraint')!.headers['tc-dlq-reason']?.toString()).toContain('test_refuses_tenant');
    const ready = await fetch(`${await app.getUrl()}/health/ready`);
    expect(ready.status, 'the projector is still consuming').toBe(200);
  }, 120_000);
});
