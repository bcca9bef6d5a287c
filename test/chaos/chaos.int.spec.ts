import type { ChildProcess } from 'node:child_process';
import { CompressionTypes } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentEventRecord, TOPICS } from '@tokencircuit/contracts';
import { createGovernance, DEFAULT_CONFIG } from '@tokencircuit/governance';
import {
  consumeUntil,
  createTestDatabase,
  ensureTopics,
  generateTrace,
  randomGroupId,
  randomTopic,
  seededRandom,
  testKafka,
  waitFor,
  type TestDatabase,
} from '@tokencircuit/testing';
import { spawnDecision } from '../decision/support/decision-harness.js';
import {
  killHard,
  spawnProjector,
  storedEventsInOrder,
  storedStates,
  waitUntilCaughtUp,
  type ProjectorTarget,
} from '../projector/support/projector-harness.js';
import { ApiHarness } from '../api/support/api-harness.js';
import { kcatProduce, requireKcat } from '../projector/support/kcat.js';
import { hostileRecord, validRecord, type RawRecord } from './support/hostile-records.js';
import { httpPlan } from './support/http-traffic.js';

const governance = createGovernance(DEFAULT_CONFIG);

/**
 * The chaos run: valid traffic mixed with hostile records produced raw to Kafka, and valid and hostile requests
 * posted to the HTTP API (serving the same topic and database), while the projector and the decision service
 * are killed with SIGKILL. `npm run chaos` runs it at full size (CHAOS_SCALE=full); the int
 * tier runs the CI-sized subset. Method and figures: docs/reliability.md.
 */
const FULL = process.env.CHAOS_SCALE === 'full';
const SIZE = FULL
  ? {
      valid: 30_000,
      httpValid: 3_000,
      hostileEvery: 20,
      projectorKills: 4,
      decisionKills: 3,
      seed: Number(process.env.CHAOS_SEED ?? 7),
    }
  : // The CI subset: every hostile kind, every kill kind, few events (the run's time is process starts, not events).
    { valid: 600, httpValid: 200, hostileEvery: 12, projectorKills: 2, decisionKills: 1, seed: 7 };

const HOSTILE_HEADER = 'tc-chaos-hostile';

describe(`chaos: hostile records and SIGKILLs over real Kafka and Postgres (${FULL ? 'full' : 'CI subset'})`, () => {
  let db: TestDatabase;
  let api: ApiHarness | undefined;
  const children: ChildProcess[] = [];
  beforeAll(async () => {
    requireKcat();
    db = await createTestDatabase('chaos');
  });
  afterAll(async () => {
    for (const child of children) await killHard(child);
    await api?.close();
    await db?.drop();
  });

  it('every valid event applied exactly once, every hostile record parked or refused once, lag and outbox at 0', async () => {
    const started = Date.now();
    const random = seededRandom(SIZE.seed);
    const target: ProjectorTarget = {
      databaseUrl: db.url,
      topic: randomTopic('chaos'),
      dlqTopic: randomTopic('chaos-dlq'),
      groupId: randomGroupId('chaos'),
    };
    const interventionsTopic = randomTopic('chaos-interventions');
    const admin = testKafka().admin();
    await admin.connect();
    await ensureTopics(admin, [
      { ...TOPICS.agentEvents, name: target.topic },
      { ...TOPICS.agentEventsDlq, name: target.dlqTopic, maxMessageBytesOf: target.topic },
      { ...TOPICS.interventions, name: interventionsTopic },
    ]);
    await admin.disconnect();

    const trace = generateTrace({ events: SIZE.valid, seed: SIZE.seed });
    // Another tenant reusing ids the first tenants already used (guessable patterns): both must be applied.
    const colliding = trace.filter((_, i) => i % 30 === 1).map((event) => ({ ...event, tenant: 'chaos-id-collider' }));
    // The HTTP leg: the API app on the same topic and database, another trace for the API's tenants.
    // The harness's clock stands still, so a quota bucket never refills: its burst must hold the whole leg
    // (quotas have their own tests; here a 429 would only hide what the run checks).
    api = await ApiHarness.start({
      database: db,
      topic: target.topic,
      quotas: { API_INGEST_BURST_EVENTS: 10_000_000, API_PREFLIGHT_BURST: 10_000_000 },
    });
    const http = httpPlan(api, generateTrace({ events: SIZE.httpValid, seed: SIZE.seed + 1 }));
    const valid: { tenant: string; id: string }[] = [...trace, ...colliding, ...http.valid];
    const records: (Omit<RawRecord, 'kind'> & { kind?: string })[] = [];
    const hostileKinds = new Map<string, string>();
    [...trace, ...colliding].forEach((event, i) => {
      records.push(validRecord(event));
      if (i % SIZE.hostileEvery === 0) {
        const n = hostileKinds.size;
        const hostile = hostileRecord(trace[Math.floor(random() * trace.length)]!, n);
        hostileKinds.set(String(n), hostile.kind);
        records.push({ ...hostile, headers: { ...hostile.headers, [HOSTILE_HEADER]: String(n) } });
      }
    });

    const producer = testKafka().producer({ idempotent: true, maxInFlightRequests: 1 });
    await producer.connect();
    const produce = async (slice: typeof records) => {
      for (let i = 0; i < slice.length; i += 200) {
        await producer.send({ topic: target.topic, acks: -1, messages: slice.slice(i, i + 200) });
      }
    };
    const half = Math.floor(records.length / 2);
    await produce(records.slice(0, half));
    // A record far larger once decompressed than the topic or its DLQ accept compressed.
    const gzipId = String(hostileKinds.size);
    hostileKinds.set(gzipId, 'gzip record 4 MiB decompressed');
    await producer.send({
      topic: target.topic,
      acks: -1,
      compression: CompressionTypes.GZIP,
      messages: [{ key: 'chaos/gzip', value: Buffer.alloc(4 << 20, 'zip '), headers: { [HOSTILE_HEADER]: gzipId } }],
    });
    // From a non-JavaScript producer (kcat, librdkafka): a compressed batch of valid events in every codec Kafka
    // defines, and records with repeated headers (issue 28: both once stopped the projector for good).
    const codecEvents = generateTrace({ events: FULL ? 400 : 40, seed: SIZE.seed + 2 })
      .slice(0, FULL ? 400 : 40)
      .map((event) => ({ ...event, tenant: 'chaos-codecs' }));
    const codecs = ['gzip', 'snappy', 'lz4', 'zstd'] as const;
    const perCodec = Math.ceil(codecEvents.length / codecs.length);
    codecs.forEach((codec, i) => {
      const lines = codecEvents.slice(i * perCodec, (i + 1) * perCodec).map((event) => {
        const record = agentEventRecord(event, 'structured');
        return { key: String(record.key), value: String(record.value) };
      });
      kcatProduce(target.topic, lines, {
        codec,
        partition: 'by-key',
        headers: [
          ['content-type', 'application/cloudevents+json'],
          ['x-chaos-hop', 'a'],
          ['x-chaos-hop', 'b'],
        ],
      });
    });
    valid.push(...codecEvents);
    const twoTenantsId = String(hostileKinds.size);
    hostileKinds.set(twoTenantsId, 'two ce_tenantid headers (kcat)');
    const twoTenants = agentEventRecord({ ...codecEvents[0]!, id: 'chaos-two-tenants' }, 'binary');
    kcatProduce(target.topic, [{ key: String(twoTenants.key), value: String(twoTenants.value) }], {
      codec: 'lz4',
      partition: 'by-key',
      headers: [
        ...Object.entries(twoTenants.headers).map(([name, value]) => [name, String(value)] as [string, string]),
        ['ce_tenantid', 'chaos-other-tenant'],
        [HOSTILE_HEADER, twoTenantsId],
      ],
    });
    const repeatedPoisonId = String(hostileKinds.size);
    hostileKinds.set(repeatedPoisonId, 'poison with a repeated header (kcat, zstd)');
    kcatProduce(target.topic, [{ key: 'chaos/repeated', value: '{"specversion":' }], {
      codec: 'zstd',
      partition: 'by-key',
      headers: [
        ['content-type', 'application/cloudevents+json'],
        ['x-chaos-hop', 'a'],
        ['x-chaos-hop', 'b'],
        [HOSTILE_HEADER, repeatedPoisonId],
      ],
    });

    const applied = async () =>
      (await db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM agent_events')).rows[0]!.n;
    // Waits for the projector to move past n, or to have applied everything there is: on a fast machine it may
    // have caught up before a kill round starts, and nothing more will come.
    const progressPast = (n: number) =>
      waitFor(async () => ((await applied()) > n || (await applied()) >= valid.length ? true : undefined), {
        maxWait: 120_000,
        interval: 100,
        name: `more than ${n} events applied`,
      });
    const spawnP = async () => {
      const child = await spawnProjector(target, `chaos-${target.groupId}`);
      children.push(child);
      return child;
    };
    const spawnD = async () => {
      const child = await spawnDecision(
        { databaseUrl: db.url, interventionsTopic },
        `chaos-decision-${target.groupId}`,
      );
      children.push(child);
      return child;
    };

    let projector = await spawnP();
    let decision = await spawnD();
    // Posted while the kill rounds run; the API's publishes do not depend on the projector being up.
    const httpSent = http.send();
    httpSent.catch(() => undefined); // awaited below; a failure must not surface as an unhandled rejection first
    let projectorKills = 0;
    let decisionKills = 0;
    const rounds = Math.max(SIZE.projectorKills, SIZE.decisionKills);
    for (let round = 0; round < rounds; round++) {
      // Round 0 only needs the projector at work before the second half goes out (the first half may be applied
      // completely by the time this line runs).
      await progressPast(round === 0 ? 0 : await applied());
      if (round === 0) await produce(records.slice(half));
      // A random moment inside the stream of chunks.
      await new Promise((r) => setTimeout(r, Math.floor(random() * 1_500)));
      if (projectorKills < SIZE.projectorKills) {
        await killHard(projector);
        projectorKills += 1;
        projector = await spawnP();
      }
      if (decisionKills < SIZE.decisionKills) {
        await killHard(decision);
        decisionKills += 1;
        decision = await spawnD();
      }
    }
    await producer.disconnect();
    const httpOutcome = await httpSent;
    // Every hostile HTTP request refused once with a 4xx JSON error, every valid one accepted.
    expect(httpOutcome.unexpected).toEqual([]);
    expect(httpOutcome.refused).toBe(http.hostile.length);
    expect(httpOutcome.accepted).toBe(http.valid.length);
    await waitUntilCaughtUp(db.pool, target, 300_000);
    await waitFor(
      async () => {
        const { rows } = await db.pool.query<{ n: number }>(
          'SELECT count(*)::int AS n FROM decision_outbox WHERE published_at IS NULL',
        );
        return rows[0]!.n === 0 ? true : undefined;
      },
      { maxWait: 120_000, interval: 250, name: 'the decision outbox drained' },
    );

    // Every valid event applied exactly once: stored once, and the state is the pure fold of what was stored.
    const stored = await storedEventsInOrder(db.pool);
    const identity = (e: { tenant: string; id: string }) => `${e.tenant}/${e.id}`;
    expect(new Set(stored.map(identity))).toEqual(new Set(valid.map(identity)));
    expect(stored).toHaveLength(valid.length);
    const replay = governance.replay(stored);
    const states = await storedStates(db.pool);
    expect(states.size).toBe(replay.states.size);
    for (const [keyId, state] of replay.states)
      expect(states.get(keyId), keyId).toEqual(JSON.parse(JSON.stringify(state)));

    // Every hostile record parked (a kill between the DLQ send and the commit may park a copy twice).
    const parked = await consumeUntil(
      target.dlqTopic,
      (received) => new Set(received.map((m) => m.headers[HOSTILE_HEADER]?.toString())).size >= hostileKinds.size,
      { maxWait: 60_000, name: `${hostileKinds.size} hostile records in the DLQ` },
    );
    const parkedIds = parked.map(
      (m) => m.headers[HOSTILE_HEADER]?.toString() ?? m.headers['tc-dlq-original-sha256']?.toString(),
    );
    expect(
      parked.every((m) => m.headers[HOSTILE_HEADER] !== undefined || m.headers['tc-dlq-truncated'] !== undefined),
    ).toBe(true);
    expect(new Set(parkedIds)).toEqual(new Set(hostileKinds.keys()));

    const { rows: interventions } = await db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM interventions');
    const { rows: outbox } = await db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM decision_outbox');
    const byKind = new Map<string, number>();
    for (const kind of hostileKinds.values()) byKind.set(kind, (byKind.get(kind) ?? 0) + 1);
    console.info(
      `[chaos ${FULL ? 'full' : 'CI subset'}] ${valid.length} valid events applied once (${colliding.length} reusing ` +
        `another tenant's ids, ${http.valid.length} posted over HTTP, ${codecEvents.length} from kcat in gzip, snappy, ` +
        `lz4 and zstd batches), ${hostileKinds.size} hostile records ` +
        `parked (${parked.length} DLQ copies, ${parked.length - hostileKinds.size} duplicated by kills), ` +
        `${projectorKills} projector and ${decisionKills} decision-service SIGKILLs, ${outbox[0]!.n} outbox rows all ` +
        `published, ${interventions[0]!.n} interventions, lag 0, ${((Date.now() - started) / 1000).toFixed(1)} s\n` +
        `  hostile kinds: ${[...byKind].map(([kind, n]) => `${kind} ×${n}`).join(', ')}\n` +
        `  HTTP: ${httpOutcome.accepted} events accepted (202), ${httpOutcome.refused} hostile requests refused once ` +
        `(${[...httpOutcome.refusedByStatus].map(([status, n]) => `${status} ×${n}`).join(', ')}), 0 answered 5xx`,
    );
  }, 600_000);
});
