import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runOfEvent, type AgentEvent } from '@tokencircuit/contracts';
import { consumedRecord } from '@tokencircuit/contracts/testing';
import { createGovernance, DEFAULT_CONFIG } from '@tokencircuit/governance';
import { pgDatabase, readCheckpoints, type SqlDatabase } from '@tokencircuit/storage';
import { createTestDatabase, generateTrace, type TestDatabase } from '@tokencircuit/testing';
import { GroupCommit } from '../../libs/projection/src/group-commit.js';
import type { DeadLetter, InboundRecord } from '../../libs/projection/src/inbound-record.js';
import { ProjectionPipeline } from '../../libs/projection/src/projection-pipeline.js';

const governance = createGovernance(DEFAULT_CONFIG);
const TOPIC = 'tokencircuit.agent-events.v1';
const FORBIDDEN_TENANT = 'group-commit-refused';

/** Consecutive chunks of one partition, at consecutive offsets from 0. */
function chunksOf(partition: number, events: readonly AgentEvent[], size: number): InboundRecord[][] {
  const records = events.map((event, i) => consumedRecord(event, { topic: TOPIC, partition, offset: String(i) }));
  const chunks: InboundRecord[][] = [];
  for (let i = 0; i < records.length; i += size) chunks.push(records.slice(i, i + size));
  return chunks;
}

/** A trace split by run over `partitions` partitions, as the SDK's tenant/run key would, tenants renamed per case. */
function partitioned(name: string, partitions: number, events = 600): AgentEvent[][] {
  const byPartition: AgentEvent[][] = Array.from({ length: partitions }, () => []);
  for (const event of generateTrace({ events, seed: 17 })) {
    const run = runOfEvent(event) ?? '';
    const at = [...run].reduce((h, c) => (h * 31 + c.charCodeAt(0)) >>> 0, 7) % partitions;
    byPartition[at]!.push({ ...event, tenant: `${name}-${event.tenant}` });
  }
  return byPartition;
}

const recordsIn = (result: {
  projected: number;
  duplicates: number;
  alreadyApplied: number;
  deadLettered: readonly unknown[];
}) => result.projected + result.duplicates + result.alreadyApplied + result.deadLettered.length;

describe('GroupCommit: chunks of several partitions in one transaction (real Postgres)', () => {
  let test: TestDatabase;
  let db: SqlDatabase;
  let transactions = 0;
  const parked: DeadLetter[] = [];

  beforeAll(async () => {
    test = await createTestDatabase('projection_group_commit');
    // A constraint the contract knows nothing about: a record only the transaction can refuse.
    await test.pool.query(`ALTER TABLE agent_events ADD CONSTRAINT gc_refuses CHECK (tenant <> '${FORBIDDEN_TENANT}')`);
    const inner = pgDatabase(test.pool);
    db = {
      ...inner,
      transaction: (work) => {
        transactions += 1;
        return inner.transaction(work);
      },
    };
  });
  afterAll(async () => {
    await test?.drop();
  });

  const groupCommit = (group: string) =>
    new GroupCommit(
      new ProjectionPipeline(db, { send: async (letters) => void parked.push(...letters) }, DEFAULT_CONFIG, group),
    );

  it('commits the chunks that wait together in one transaction; each caller gets its own partition’s counts; state as the reference fold in commit order', async () => {
    const [p0, p1, p2] = partitioned('together', 3);
    const [a] = chunksOf(0, p0!, 10_000);
    const [b] = chunksOf(1, p1!, 10_000);
    const [c] = chunksOf(2, p2!, 10_000);
    const gc = groupCommit('together');
    const before = transactions;
    // a starts at once; b and c arrive while it runs and share the next transaction.
    const results = await Promise.all([a!, b!, c!].map((chunk) => gc.process(chunk)));
    expect(transactions - before).toBe(2);
    expect(results.map(recordsIn)).toEqual([a!.length, b!.length, c!.length]);
    expect(results.map((r) => r.projected)).toEqual([p0!.length, p1!.length, p2!.length]);
    expect(results.every((r) => r.deadLettered.length === 0)).toBe(true);

    const reference = governance.replay([...p0!, ...p1!, ...p2!]);
    const { rows } = await db.query<{ key_id: string; state: unknown }>(
      `SELECT key_id, state FROM failure_state WHERE tenant LIKE 'together-%'`,
    );
    expect(new Map(rows.map((r) => [r.key_id, r.state]))).toEqual(new Map(reference.states));
    expect(results.reduce((n, r) => n + r.outbox, 0)).toBe(reference.outbox.length);
    expect(await readCheckpoints(db, 'together', TOPIC)).toEqual(
      new Map([
        [0, BigInt(a!.length)],
        [1, BigInt(b!.length)],
        [2, BigInt(c!.length)],
      ]),
    );
  });

  it('never puts two chunks of one partition in a group: the later one waits, so each partition stays in offset order', async () => {
    const [p0, p1, p2] = partitioned('ordered', 3);
    const [first] = chunksOf(2, p2!, 10_000);
    const [a1, a2] = chunksOf(0, p0!, Math.ceil(p0!.length / 2));
    const [b] = chunksOf(1, p1!, 10_000);
    const gc = groupCommit('ordered');
    const before = transactions;
    const results = await Promise.all([first!, a1!, a2!, b!].map((chunk) => gc.process(chunk)));
    // first alone; then a1 and b; then a2.
    expect(transactions - before).toBe(3);
    expect(results.map(recordsIn)).toEqual([first!.length, a1!.length, a2!.length, b!.length]);
    const reference = governance.replay([...p2!, ...p0!.slice(0, a1!.length), ...p1!, ...p0!.slice(a1!.length)]);
    const { rows } = await db.query<{ key_id: string; state: unknown }>(
      `SELECT key_id, state FROM failure_state WHERE tenant LIKE 'ordered-%'`,
    );
    expect(new Map(rows.map((r) => [r.key_id, r.state]))).toEqual(new Map(reference.states));
  });

  it('isolates a record the transaction refuses to the caller whose chunk held it; the others commit', async () => {
    const [p0, p1, p2] = partitioned('poison', 3, 300);
    const poison: AgentEvent = { ...p1![3]!, id: 'refused-by-constraint', tenant: FORBIDDEN_TENANT };
    const withPoison = [...p1!.slice(0, 5), poison, ...p1!.slice(5)];
    const [a] = chunksOf(0, p0!, 10_000);
    const [b] = chunksOf(1, withPoison, 10_000);
    const [c] = chunksOf(2, p2!, 10_000);
    const gc = groupCommit('poison');
    const parkedBefore = parked.length;
    const results = await Promise.all([a!, b!, c!].map((chunk) => gc.process(chunk)));
    expect(results.map((r) => r.deadLettered.length)).toEqual([0, 1, 0]);
    expect(results[1]!.deadLettered[0]!.source).toMatchObject({ partition: 1, offset: '5' });
    expect(parked.slice(parkedBefore).map((dl) => dl.code)).toEqual(['unprojectable']);
    expect(results.map((r) => r.projected)).toEqual([p0!.length, p1!.length, p2!.length]);
    expect(await readCheckpoints(db, 'poison', TOPIC)).toEqual(
      new Map([
        [0, BigInt(a!.length)],
        [1, BigInt(b!.length)],
        [2, BigInt(c!.length)],
      ]),
    );
  });

  it('fails every caller of a group when the database fails, and commits nothing of it', async () => {
    const [p0, p1] = partitioned('outage', 2, 200);
    const [a] = chunksOf(0, p0!, 10_000);
    const [b] = chunksOf(1, p1!, 10_000);
    const broken: SqlDatabase = {
      ...db,
      transaction: () => Promise.reject(Object.assign(new Error('connection terminated'), { code: '57P01' })),
    };
    const gc = new GroupCommit(
      new ProjectionPipeline(broken, { send: async () => undefined }, DEFAULT_CONFIG, 'outage'),
    );
    const settled = await Promise.allSettled([a!, b!].map((chunk) => gc.process(chunk)));
    expect(settled.map((s) => s.status)).toEqual(['rejected', 'rejected']);
    expect(await readCheckpoints(db, 'outage', TOPIC)).toEqual(new Map());
    // The same chunks, once the database answers, commit in full.
    const healthy = groupCommit('outage');
    const results = await Promise.all([a!, b!].map((chunk) => healthy.process(chunk)));
    expect(results.map((r) => r.projected)).toEqual([p0!.length, p1!.length]);
  });
});
