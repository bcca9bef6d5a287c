import type { AddressInfo } from 'node:net';
import type { INestApplication } from '@nestjs/common';
import pg from 'pg';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DiagnosticArtifactSchema, TOPICS, type AgentEvent, type InterventionData } from '@tokencircuit/contracts';
import { createGovernance, DEFAULT_CONFIG, policyVersion } from '@tokencircuit/governance';
import { verifyTenantChain } from '@tokencircuit/storage';
import {
  createTestDatabase,
  createTopic,
  randomGroupId,
  randomTopic,
  testKafka,
  type TestDatabase,
} from '@tokencircuit/testing';
import { createApiApp } from '@tokencircuit/api-http';
import { parseApiKeys } from '@tokencircuit/api-http';
import { KafkaAgentEventPublisher } from '@tokencircuit/api-http';
import { apiDatabase } from '@tokencircuit/api-http';
import { SpecAgent, Timeline } from '@tokencircuit/contracts/testing';
import { produceEvents, startProjectorInProcess } from '../projector/support/projector-harness.js';
import { interventionRecorder, startDecisionInProcess } from './support/decision-harness.js';

const governance = createGovernance(DEFAULT_CONFIG);

const SECRET = 'hunter2-s3cr3t';
const API_KEY = 'acme-decision-e2e-key-0123456789';

/** The RFC's five scenarios as agents of tenant acme would produce them. */
function rfcScenarios(): { events: AgentEvent[]; agentB: SpecAgent; timeline: Timeline } {
  const timeline = new Timeline('2026-11-29T09:00:00.000Z');
  const events: AgentEvent[] = [];
  const finance = {
    resourceClass: 'sql_namespace',
    resourceId: 'finance.salaries',
    principal: 'svc-analytics',
    authScope: 'read:finance',
    effect: 'read',
    sqlStatement: 'SELECT 1',
  } as const;

  // 1. Permission: one principal, one restricted resource, different model-generated queries.
  const analyst = new SpecAgent(timeline, 'acme', 'analyst-a', 'run-perm-a', finance);
  const q1 = analyst.call('sql_query', { arguments: { sql: 'SELECT * FROM finance.salaries' } });
  const denied = {
    sqlState: '42501',
    message: `permission denied for table salaries (dsn postgres://analyst:${SECRET}@db.internal/finance)`,
  };
  events.push(analyst.requested(q1), analyst.failed(q1, denied));
  const q2 = analyst.call('sql_query', { arguments: { sql: 'SELECT name, salary FROM finance.salaries LIMIT 10' } });
  events.push(analyst.requested(q2), analyst.failed(q2, denied));

  // 2. Validation: one repair attempt; the identical arguments again are rejected; then forced summary.
  const tickets = new SpecAgent(timeline, 'acme', 'support-bot', 'run-validation', {
    resourceClass: 'api_endpoint',
    authScope: 'tickets:write',
    effect: 'write',
    httpMethod: 'POST',
    principal: 'svc-support',
  });
  const bad = tickets.call('create_ticket', { arguments: { title: '', priority: 'urgent!!' }, idempotencyKey: 'tk-1' });
  const unprocessable = {
    httpStatus: 422,
    message: 'title must not be empty; priority must be one of low|normal|high',
  };
  events.push(tickets.requested(bad), tickets.failed(bad, unprocessable));
  const repaired = tickets.retry(bad, { arguments: { title: 'Printer on fire', priority: 'urgent!!' } });
  events.push(tickets.requested(repaired), tickets.failed(repaired, unprocessable));
  events.push(tickets.requested(tickets.retry(repaired)));

  // 3. Transient: 503 with Retry-After, small budget.
  const fetcher = new SpecAgent(timeline, 'acme', 'fetcher', 'run-transient', {
    resourceClass: 'api_endpoint',
    effect: 'read',
    httpMethod: 'GET',
    principal: 'svc-fetch',
  });
  let call = fetcher.call('http_get', { arguments: { url: 'https://status.example.com/api' } });
  for (let attempt = 0; attempt < 3; attempt++) {
    events.push(
      fetcher.requested(call),
      fetcher.failed(call, { httpStatus: 503, message: 'Service Unavailable', headers: { 'retry-after': '2' } }),
    );
    call = fetcher.retry(call);
  }

  // 4. Empty result: flagged for verification; the verifier says the query was probably wrong.
  const reporter = new SpecAgent(timeline, 'acme', 'reporter', 'run-empty', {
    resourceClass: 'sql_namespace',
    effect: 'read',
    principal: 'svc-report',
    sqlStatement: 'SELECT',
  });
  const lookup = reporter.call('sql_query', { arguments: { sql: "SELECT * FROM orders WHERE status = 'shipped '" } });
  events.push(reporter.requested(lookup), reporter.succeeded(lookup, { empty: true, rowCount: 0 }));
  events.push(reporter.verified(lookup, 'empty_result', 'refuted'));

  // 5. Side-effect uncertainty: a POST timed out after dispatch; read-after-write finds it was applied.
  const billing = new SpecAgent(timeline, 'acme', 'billing-bot', 'run-side-effect', {
    resourceClass: 'api_endpoint',
    authScope: 'invoices:write',
    effect: 'write',
    httpMethod: 'POST',
    principal: 'svc-billing',
  });
  const invoice = billing.call('create_invoice', { arguments: { customer: 'c-42', amount: 1200 } });
  events.push(
    billing.requested(invoice),
    billing.unknown(
      invoice,
      { errno: 'ETIMEDOUT', message: 'socket timeout after 30000 ms' },
      { requestSent: true, responseReceived: false },
    ),
  );
  events.push(billing.verified(invoice, 'read_after_write', 'confirmed'));

  const agentB = new SpecAgent(timeline, 'acme', 'analyst-b', 'run-perm-b', finance);
  return { events, agentB, timeline };
}

describe('decision service end to end: the RFC scenarios over Kafka and Postgres', () => {
  let db: TestDatabase;
  const apps: INestApplication[] = [];

  beforeAll(async () => {
    db = await createTestDatabase('decision_rfc');
  });
  afterAll(async () => {
    for (const app of apps.reverse()) await app.close();
    await db?.drop();
  });

  it('publishes every expected intervention with a complete, redacted artifact; the audit chain verifies; agent B learns from agent A', async () => {
    const { events, agentB } = rfcScenarios();
    const topic = await createTopic(randomTopic('rfc-agent-events'), TOPICS.agentEvents.partitions);
    const interventionsTopic = await createTopic(randomTopic('rfc-interventions'), TOPICS.interventions.partitions);
    const dlqTopic = await createTopic(randomTopic('rfc-dlq'), 1);
    const recorder = await interventionRecorder(interventionsTopic);

    const replay = governance.replay(events);
    const expected = replay.outbox
      .map((entry) => governance.intervention(entry, entry.snapshot.updatedAt))
      .filter((i): i is InterventionData => i !== null);
    expect(new Set(expected.map((i) => i.artifact.failure_class))).toEqual(
      new Set(['permission', 'validation', 'transient', 'ambiguous_effect']),
    );

    await produceEvents(topic, events, 'mixed');
    apps.push(await startProjectorInProcess({ databaseUrl: db.url, topic, dlqTopic, groupId: randomGroupId('rfc') }));
    apps.push(await startDecisionInProcess({ databaseUrl: db.url, interventionsTopic }));
    await recorder.waitForIds(expected.map((i) => i.interventionId));
    await recorder.stop();

    const byId = new Map(recorder.received.map((i) => [i.interventionId, i]));
    for (const intervention of expected) {
      const published = byId.get(intervention.interventionId)!;
      expect(published, intervention.keyId).toEqual(intervention);
      const artifact = DiagnosticArtifactSchema.parse(published.artifact);
      expect(Object.keys(artifact.equivalence_key).sort()).toEqual(
        ['auth_scope', 'error_class', 'resource_class', 'side_effect_boundary', 'tool_name'].sort(),
      );
      expect(artifact.sample_receipts.length).toBeLessThanOrEqual(3);
      expect(artifact.safety_justification.length).toBeGreaterThan(20);
      expect(artifact.policy_version).toBe(policyVersion(DEFAULT_CONFIG));
    }
    expect(JSON.stringify(recorder.received)).not.toContain(SECRET);

    const levels = (cls: string) =>
      expected.filter((i) => i.artifact.failure_class === cls).map((i) => `${i.level}:${i.nextAction}`);
    expect(levels('permission')).toContain('block:stop_request_authorization');
    expect(levels('validation')).toContain('advise:correct_arguments');
    expect(levels('transient')).toContain('advise:retry_with_backoff');
    expect(levels('ambiguous_effect')).toContain('block:reconcile_before_retry');
    expect(levels('ambiguous_effect')).toContain('advise:proceed');

    const rows = await db.pool.query<{ id: string; artifact: unknown }>(
      'SELECT id, artifact FROM interventions ORDER BY seq',
    );
    expect(new Set(rows.rows.map((r) => r.id))).toEqual(new Set(expected.map((i) => i.interventionId)));
    expect(rows.rows).toHaveLength(expected.length);
    expect(JSON.stringify(rows.rows)).not.toContain(SECRET);
    const stored = await db.pool.query<{ n: string }>(
      'SELECT count(*)::text AS n FROM agent_events WHERE tokencircuit_cloud_event(agent_events)::text LIKE $1',
      [`%${SECRET}%`],
    );
    expect(stored.rows[0]!.n, 'secrets are redacted before events are stored').toBe('0');
    const chain = await verifyTenantChain(db.pool, 'acme');
    expect(chain.ok).toBe(true);

    // Fleet-wide learning: agent B, another run, a different query on the same principal and resource.
    const publisher = await KafkaAgentEventPublisher.connect(testKafka(), topic);
    const api = await createApiApp({
      config: { apiKeys: parseApiKeys(`acme:${API_KEY}`), API_MAX_BODY_BYTES: 1024 * 1024 },
      policy: DEFAULT_CONFIG,
      log: pino({ level: 'silent' }),
      publisher,
      db: apiDatabase(new pg.Pool({ connectionString: db.url, max: 2 })),
    });
    await api.listen(0, '127.0.0.1');
    apps.push(api);
    const { port } = api.getHttpServer().address() as AddressInfo;
    const query = agentB.call('sql_query', { arguments: { sql: 'SELECT avg(salary) FROM finance.salaries' } });
    const response = await fetch(`http://127.0.0.1:${port}/v1/preflight`, {
      method: 'POST',
      headers: { authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ call: query }),
    });
    expect(response.status).toBe(200);
    const answer = (await response.json()) as {
      allow: boolean;
      artifact: { key_id: string; causing_event_ids: string[]; failure_class: string };
    };
    expect(answer.allow).toBe(false);
    expect(answer.artifact.failure_class).toBe('permission');
    const permissionEvents = events
      .filter((e) => e.type === 'tool_call.outcome' && e.data.call.agent === 'analyst-a')
      .map((e) => e.id);
    expect(answer.artifact.causing_event_ids).toEqual(expect.arrayContaining(permissionEvents));
  }, 180_000);
});
