import type { INestApplication, INestApplicationContext } from '@nestjs/common';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAgentEvent, type AgentEventInput } from '@tokencircuit/contracts';
import { outcome, toolCall } from '@tokencircuit/contracts/testing';
import { DEFAULT_CONFIG } from '@tokencircuit/governance';
import { composeKafkaPostgresModule } from '@tokencircuit/composition';
import {
  consumeUntil,
  createTestDatabase,
  createTopic,
  randomGroupId,
  randomTopic,
  testBrokers,
  waitFor,
  type ReceivedMessage,
  type TestDatabase,
} from '@tokencircuit/testing';
import { SECRET_SHAPES, type SecretShape } from '../../libs/governance/src/redact/fixtures/secret-shapes.js';
import { ApiHarness } from '../api/support/api-harness.js';
import { HttpReceiver } from '../notifier/support/http-receiver.js';
import { notifierEnv, startNotifier, writeNotifyFile } from '../notifier/support/notifier-harness.js';
import { produceEvents, startProjectorInProcess } from '../projector/support/projector-harness.js';

/**
 * Issue 28 (redaction, point 3) end to end: every shape of the secret corpus (fixtures/secret-shapes.ts)
 * is posted through HTTP ingest inside agent events (error messages, headers, resource ids, tool
 * arguments) and an operator's resolution reason, through the real pipeline: the API publishing to Kafka,
 * the projector storing in Postgres, the decision service publishing interventions and episodes, the
 * notifier delivering to local HTTP receivers; and the same through the Kafka door (records produced straight
 * to the agent-events topic, which the projector redacts as it decodes them). Then every place a secret could come to rest is searched for
 * every planted secret, as written and as JSON escapes it: every column of every table of the spec's
 * database (as text), the agent-events, interventions, episodes and audit-anchors topics, the notifier's
 * payloads and the API's answers (state, audit export, dashboard fleet and runs, preflight).
 */
const TENANT = 'acme';
const CHUNK = 10;
const WAIT = { maxWait: 120_000, interval: 200 };

const chunks: SecretShape[][] = [];
for (let i = 0; i < SECRET_SHAPES.length; i += CHUNK) chunks.push(SECRET_SHAPES.slice(i, i + CHUNK));

/** A permission denial (a block, so it is published and notified) whose every text field holds secrets. */
function deniedWithSecrets(i: number, shapes: readonly SecretShape[]): AgentEventInput {
  const [first, ...rest] = shapes;
  const call = toolCall({
    run: `run-${i}`,
    intentId: `intent-${i}`,
    resourceId: `finance/${i}/${first!.text}`.slice(0, 1024),
    arguments: Object.fromEntries(rest.map((s, j) => [`field_${j}`, { note: s.text }])),
  });
  return outcome(TENANT, call, {
    status: 'failed',
    error: {
      sqlState: '42501',
      name: 'insufficient_privilege',
      message: `permission denied: ${shapes.map((s) => s.text).join(' | ')}`.slice(0, 4096),
      headers: { 'x-debug': rest[0]?.text ?? first!.text, 'x-api-key': `plain-${i}-Zq3xR8vT2mK9pL4w` },
    },
    dispatch: { requestSent: true, responseReceived: true },
  });
}

/** The planted secrets found in `text`, as written or JSON-escaped. */
const found = (text: string, shapes: readonly SecretShape[] = SECRET_SHAPES): string[] =>
  shapes
    .map((s) => s.secret)
    .filter((secret) => text.includes(secret) || text.includes(JSON.stringify(secret).slice(1, -1)));

const asText = (messages: readonly ReceivedMessage[]): string =>
  messages
    .map((m) =>
      [
        m.key?.toString('utf8') ?? '',
        m.value?.toString('utf8') ?? '',
        ...Object.values(m.headers).map((h) => String(h ?? '')),
      ].join('\n'),
    )
    .join('\n');

describe('no planted secret survives into any table, topic, payload or API answer', () => {
  let db: TestDatabase;
  let api: ApiHarness;
  let projector: INestApplication;
  let decision: INestApplication;
  let notifier: INestApplicationContext;
  const topics = {
    events: randomTopic('planted-events'),
    dlq: randomTopic('planted-dlq'),
    interventions: randomTopic('planted-interventions'),
    episodes: randomTopic('planted-episodes'),
    anchors: randomTopic('planted-anchors'),
    notifierDlq: randomTopic('planted-notifier-dlq'),
  };
  const webhook = new HttpReceiver(() => ({ status: 200 }));
  const pagerduty = new HttpReceiver(() => ({ status: 202 }));
  const slack = new HttpReceiver(() => ({ status: 200, body: 'ok' }));
  const answers: string[] = [];

  beforeAll(async () => {
    db = await createTestDatabase('tc_planted');
    await createTopic(topics.events, 1);
    for (const t of [topics.dlq, topics.interventions, topics.episodes, topics.anchors, topics.notifierDlq]) {
      await createTopic(t, 1);
    }
    await webhook.start();
    await pagerduty.start();
    await slack.start();
    api = await ApiHarness.start({ database: db, topic: topics.events });
    projector = await startProjectorInProcess({
      databaseUrl: db.url,
      topic: topics.events,
      dlqTopic: topics.dlq,
      groupId: randomGroupId('planted-projector'),
    });
    const decisionEnv = {
      KAFKA_BROKERS: testBrokers().join(','),
      DATABASE_URL: db.url,
      INTERVENTIONS_TOPIC: topics.interventions,
      EPISODES_TOPIC: topics.episodes,
      AUDIT_ANCHORS_TOPIC: topics.anchors,
      DECISION_HTTP_PORT: '0',
      DECISION_POLL_INTERVAL_MS: '100',
      LOG_LEVEL: 'silent',
    };
    decision = await composeKafkaPostgresModule('decision', decisionEnv, DEFAULT_CONFIG, pino({ level: 'silent' }));
    notifier = await startNotifier(
      notifierEnv({
        databaseUrl: db.url,
        episodesTopic: topics.episodes,
        dlqTopic: topics.notifierDlq,
        notifyFile: writeNotifyFile({
          sinks: {
            hook: { type: 'webhook', url: webhook.url, secret: { env: 'HOOK_SECRET' } },
            oncall: { type: 'pagerduty', routingKey: { env: 'PD_KEY' }, url: pagerduty.url },
            chat: { type: 'slack', webhookUrl: `${slack.url}/services/T0/B0/X0` },
          },
          routes: [{ match: { level: ['block', 'page'] }, sinks: ['hook', 'oncall', 'chat'] }],
        }),
        extra: { PD_KEY: 'planted-routing-key', HOOK_SECRET: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' },
      }),
    );
  }, 180_000);

  afterAll(async () => {
    await notifier?.close();
    await decision?.close();
    await projector?.close();
    await api?.close();
    await webhook.stop();
    await pagerduty.stop();
    await slack.stop();
    await db?.drop();
  });

  it('posts every shape of the corpus, resolves with a reason full of secrets, and finds none of them anywhere', async () => {
    // Ingest: one event per chunk of shapes.
    for (const [i, shapes] of chunks.entries()) {
      const response = await api.as(TENANT, '/v1/events', { body: { events: [deniedWithSecrets(i, shapes)] } });
      expect(response.status, await response.clone().text()).toBe(202);
      answers.push(await response.text());
    }

    // The Kafka door: a producer writes to the topic directly; the projector redacts what it decodes. The
    // topic itself holds that record raw (docs/security.md, "The dead-letter topic holds raw records").
    const kafkaShapes = SECRET_SHAPES.filter((_, i) => i % 5 === 2);
    const direct = parseAgentEvent(deniedWithSecrets(chunks.length, kafkaShapes.slice(0, CHUNK)));
    await produceEvents(topics.events, [direct]);
    const keyCount = chunks.length + 1;

    // Every denial folded into a blocked key.
    const states = await waitFor(
      async () => {
        const response = await api.as(TENANT, '/v1/state');
        const body = (await response.json()) as { states?: { keyId: string }[]; items?: { keyId: string }[] };
        const list = body.states ?? body.items ?? [];
        return list.length >= keyCount ? list : null;
      },
      { ...WAIT, name: `${keyCount} blocked keys` },
    );

    // An operator's door: the reason is free text and lands in the audit trail and the notifier's resolve.
    const reasonShapes = SECRET_SHAPES.filter((_, i) => i % 7 === 0);
    const resolution = await api.as(TENANT, '/v1/resolutions', {
      body: {
        keyId: states[0]!.keyId,
        resolution: 'acknowledged',
        by: 'oncall-bob',
        reason: `checked by hand: ${reasonShapes.map((s) => s.text).join(' ; ')}`.slice(0, 4096),
      },
    });
    expect(resolution.status, await resolution.clone().text()).toBeLessThan(300);
    answers.push(await resolution.text());

    // Preflight's answer for a call holding secrets.
    const preflight = await api.as(TENANT, '/v1/preflight', {
      body: { call: (deniedWithSecrets(0, chunks[0]!).data as { call: unknown }).call },
    });
    expect(preflight.status).toBe(200);
    answers.push(await preflight.text());

    // The pipeline ran to its end: an intervention per key, the notifier delivered to every sink.
    const interventions = await consumeUntil(topics.interventions, (r) => r.length >= keyCount, {
      maxWait: WAIT.maxWait,
      name: 'an intervention per key',
    });
    await waitFor(() => webhook.requests.length >= keyCount && slack.requests.length >= keyCount, {
      ...WAIT,
      name: 'a notification per key in every sink',
    });
    const episodes = await consumeUntil(topics.episodes, (r) => r.length >= keyCount, {
      maxWait: WAIT.maxWait,
      name: 'an episode per key',
    });
    const events = await consumeUntil(topics.events, (r) => r.length >= keyCount + 1, {
      maxWait: WAIT.maxWait,
      name: 'the agent events and the resolution',
    });

    // API answers: state (list and each key), audit export, dashboard fleet and runs.
    for (const state of states) {
      answers.push(await (await api.as(TENANT, `/v1/state/${encodeURIComponent(state.keyId)}`)).text());
    }
    answers.push(await (await api.as(TENANT, '/v1/state')).text());
    const audit = await api.as(TENANT, '/v1/audit/interventions');
    expect(audit.status).toBe(200);
    const auditText = await audit.text();
    answers.push(auditText);
    for (const id of [...auditText.matchAll(/"id":"([^"]+)"/g)].map((m) => m[1]!).slice(0, 40)) {
      answers.push(await (await api.as(TENANT, `/v1/audit/interventions/${encodeURIComponent(id)}`)).text());
    }
    const fleet = await api.as(TENANT, '/v1/dashboard/fleet');
    answers.push(`${fleet.status} ${await fleet.text()}`);
    for (let i = 0; i < keyCount; i++) {
      const run = await api.as(TENANT, `/v1/dashboard/runs/run-${i}`);
      answers.push(`${run.status} ${await run.text()}`);
    }

    // Every table, every column, as text.
    const { rows: tables } = await db.pool.query<{ schema: string; name: string }>(
      `SELECT table_schema AS schema, table_name AS name FROM information_schema.tables
        WHERE table_type = 'BASE TABLE' AND table_schema NOT IN ('pg_catalog', 'information_schema')`,
    );
    expect(tables.length).toBeGreaterThan(5);
    const leaks: Record<string, string[]> = {};
    let storedRows = 0;
    for (const table of tables) {
      const { rows } = await db.pool.query<{ row: string }>(
        `SELECT t::text AS row FROM "${table.schema}"."${table.name}" t`,
      );
      storedRows += rows.length;
      const hits = found(rows.map((r) => r.row).join('\n'));
      if (hits.length > 0) leaks[`table ${table.schema}.${table.name}`] = hits;
    }
    expect(storedRows).toBeGreaterThan(chunks.length);

    const places: Record<string, string> = {
      // Without the record produced raw to it.
      'topic agent-events': asText(events.filter((m) => !asText([m]).includes(direct.id))),
      'topic interventions': asText(interventions),
      'topic episodes': asText(episodes),
      'notifier webhook': webhook.requests.map((r) => r.body).join('\n'),
      'notifier pagerduty': pagerduty.requests.map((r) => r.body).join('\n'),
      'notifier slack': slack.requests.map((r) => r.body).join('\n'),
      'API answers': answers.join('\n'),
    };
    for (const [place, text] of Object.entries(places)) {
      const hits = found(text);
      if (hits.length > 0) leaks[place] = hits;
    }
    // The searched texts do hold the redacted events: markers where the secrets were.
    expect(places['topic agent-events']).toContain('[REDACTED:');
    expect(places['notifier webhook']).toContain('[REDACTED:');
    expect(leaks).toEqual({});
  }, 300_000);
});
