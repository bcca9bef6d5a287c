import { writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { Producer } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuditAnchorer } from '@tokencircuit/decision-relay';
import { KafkaAnchorSink } from '@tokencircuit/decision-service';
import {
  appendInterventions,
  generateAnchorKeyPair,
  parseAnchorSigningKey,
  pgDatabase,
  setServiceRolePasswords,
  type SqlDatabase,
} from '@tokencircuit/storage';
import { createTopic, randomTopic, testKafka } from '@tokencircuit/testing';
import { ApiHarness, KEYS, type Tenant } from '../api/support/api-harness.js';
import { interventionFixture } from '../support/postgres-fixtures.js';
import { jsonLines, runCli } from './support/run-cli.js';

const PASSWORD = 'tc-test-service-role-password';
const TENANTS: readonly Tenant[] = ['acme', 'globex', 'initech'];

interface VerifyRecord {
  tenant: string;
  result: { ok: boolean };
  findings?: { code: string; message: string }[];
}

/**
 * The trail against a signed anchor kept outside the database, through the real CLI, API, Postgres and
 * Kafka: the decision service's anchorer (as its own login role) publishes to a fresh audit-anchors topic,
 * then each tenant's trail is tampered a different way (as the table owner, triggers switched off).
 */
describe('npx tokencircuit verify --anchor: tamper evidence past the head', () => {
  let api: ApiHarness;
  let decision: SqlDatabase;
  let producer: Producer;
  let anchorer: AuditAnchorer;
  let topic: string;
  let dir: string;
  const tampered: string[] = [];
  const keys = generateAnchorKeyPair();
  const env = () => ({
    KAFKA_BROKERS: process.env['KAFKA_BROKERS'],
    AUDIT_ANCHORS_TOPIC: topic,
    TOKENCIRCUIT_ANCHOR_PUBLIC_KEY: keys.publicKeyPem,
  });
  const verify = async (tenant: Tenant, ...extra: string[]) => {
    const run = await runCli(['verify', '--json', '--url', api.baseUrl, '--api-key', KEYS[tenant], ...extra], {
      env: env(),
      timeoutMs: 120_000,
    });
    return { run, record: jsonLines<VerifyRecord>(run.stdout)[0] };
  };
  const owner = async (...statements: string[]) => {
    const client = await api.database.pool.connect();
    try {
      await client.query('BEGIN');
      for (const table of ['interventions', 'agent_events'])
        await client.query(`ALTER TABLE ${table} DISABLE TRIGGER USER`);
      for (const statement of statements) await client.query(statement);
      for (const table of ['interventions', 'agent_events'])
        await client.query(`ALTER TABLE ${table} ENABLE TRIGGER USER`);
      await client.query('COMMIT');
    } finally {
      client.release();
    }
  };

  beforeAll(async () => {
    api = await ApiHarness.start();
    dir = mkdtempSync(join(tmpdir(), 'tc-anchors-'));
    topic = await createTopic(randomTopic('audit-anchors'), 1);
    for (const tenant of TENANTS) {
      for (let i = 1; i <= 4; i++) {
        await api.database.pool.query(
          `INSERT INTO agent_events (id, tenant, run, type, occurred_at, cloud_event)
           VALUES ($1, $2, 'run-1', 'dev.tokencircuit.tool_call.outcome.v1', now(), $3::json)`,
          [`evt-${tenant}-${i}`, tenant, JSON.stringify({ id: `evt-${tenant}-${i}`, data: { latencyMs: 10 * i } })],
        );
      }
      const client = await api.database.pool.connect();
      try {
        await appendInterventions(
          client,
          [1, 2, 3].map((i) => interventionFixture(`${tenant}-i${i}`, tenant)),
        );
      } finally {
        client.release();
      }
    }
    // The decision service's own login role: the horizon function and audit_anchor_heads are granted to it.
    await setServiceRolePasswords(api.database.url, { TOKENCIRCUIT_DECISION_DB_PASSWORD: PASSWORD });
    const url = new URL(api.database.url);
    url.username = 'tokencircuit_decision';
    url.password = PASSWORD;
    decision = pgDatabase(new pg.Pool({ connectionString: url.toString(), max: 2 }));
    producer = testKafka().producer();
    await producer.connect();
    anchorer = new AuditAnchorer(
      decision,
      new KafkaAnchorSink(producer, topic),
      parseAnchorSigningKey(keys.privateKeyPem),
      (tenant, reason) => tampered.push(`${tenant}: ${reason}`),
    );
    const anchors = await anchorer.anchor();
    expect(anchors.map((a) => a.tenant).sort()).toEqual([...TENANTS]);
    expect(anchors.every((a) => a.chain !== null && a.events.count === 4)).toBe(true);
  }, 180_000);

  afterAll(async () => {
    await producer?.disconnect();
    await decision?.close();
    await api?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('an untampered trail matches its latest anchor, from the topic and from an exported file', async () => {
    for (const tenant of TENANTS) {
      const { run, record } = await verify(tenant, '--anchor-topic');
      expect(run.code, run.stderr).toBe(0);
      expect(record).toMatchObject({ tenant, result: { ok: true }, findings: [] });
    }
    const exported = await runCli(['anchors', 'export', '--tenant', 'acme'], { env: env() });
    expect(exported.code, exported.stderr).toBe(0);
    writeFileSync(join(dir, 'head.json'), exported.stdout);
    const human = await runCli(
      ['verify', '--url', api.baseUrl, '--api-key', KEYS.acme, '--anchor', join(dir, 'head.json')],
      { env: env() },
    );
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toMatch(/matches the anchor of .* \(key [0-9a-f]{16}; chain #\d+, 4 event\(s\)/);
  });

  it('the newest interventions deleted: plain verify passes, verify against the anchor names the removal', async () => {
    await owner(
      `DELETE FROM interventions WHERE seq IN (SELECT seq FROM interventions WHERE tenant = 'acme' ORDER BY seq DESC LIMIT 2)`,
    );
    expect((await verify('acme')).run.code).toBe(0); // what the head alone cannot see
    for (const source of [['--anchor', join(dir, 'head.json')], ['--anchor-topic']]) {
      const { run, record } = await verify('acme', ...source);
      expect(run.code, run.stderr).toBe(1);
      expect(record!.findings).toEqual([
        expect.objectContaining({
          code: 'chain_rows_removed',
          message: expect.stringMatching(/newest rows were deleted/),
        }),
      ]);
    }
  });

  it('the newest intervention edited and its hash recomputed: verify against the anchor names the rewrite', async () => {
    await owner(
      `UPDATE interventions SET level = 'advise', next_action = 'proceed'
        WHERE seq = (SELECT max(seq) FROM interventions WHERE tenant = 'globex')`,
      `UPDATE interventions i SET hash = tokencircuit_intervention_hash(i)
        WHERE seq = (SELECT max(seq) FROM interventions WHERE tenant = 'globex')`,
    );
    expect((await verify('globex')).run.code).toBe(0); // the chain itself is consistent again
    const { run, record } = await verify('globex', '--anchor-topic');
    expect(run.code).toBe(1);
    expect(record!.findings).toEqual([expect.objectContaining({ code: 'chain_row_rewritten' })]);
    const human = await runCli(['verify', '--url', api.baseUrl, '--api-key', KEYS.globex, '--anchor-topic'], {
      env: env(),
    });
    expect(human.stdout).toContain('TAMPERED');
    expect(human.stdout).toMatch(/chain_row_rewritten: intervention #\d+ was rewritten after it was anchored/);
  });

  it('an agent event edited in a way that keeps its classification: verify against the anchor names it', async () => {
    await owner(
      `UPDATE agent_events SET cloud_event = '{"id":"evt-initech-2","data":{"latencyMs":99999}}'::json
        WHERE tenant = 'initech' AND id = 'evt-initech-2'`,
    );
    const { run, record } = await verify('initech', '--anchor-topic');
    expect(run.code).toBe(1);
    expect(record!.findings).toEqual([expect.objectContaining({ code: 'events_rewritten' })]);
  });

  it('the anchorer does not re-anchor a tampered chain: the topic keeps vouching for what was anchored', async () => {
    await anchorer.anchor();
    expect(tampered.sort()).toEqual([
      expect.stringMatching(/^acme: intervention #\d+, anchored before, is gone/),
      expect.stringMatching(/^globex: intervention #\d+ was rewritten after it was anchored/),
    ]);
    expect((await verify('acme', '--anchor-topic')).run.code).toBe(1);
    expect((await verify('globex', '--anchor-topic')).run.code).toBe(1);
  });

  it('an anchor signed with another key, or edited, is refused (exit 2), not trusted', async () => {
    const exported = JSON.parse(
      (await runCli(['anchors', 'export', '--tenant', 'initech'], { env: env() })).stdout,
    ) as { events: { count: number } };
    writeFileSync(join(dir, 'forged.json'), JSON.stringify({ ...exported, events: { ...exported.events, count: 3 } }));
    const forged = await verify('initech', '--anchor', join(dir, 'forged.json'));
    expect(forged.run.code).toBe(2);
    expect(forged.run.stderr).toContain('the signature does not match its content');
    const other = generateAnchorKeyPair();
    const wrongKey = await runCli(
      ['verify', '--url', api.baseUrl, '--api-key', KEYS.initech, '--anchor-topic', '--public-key', other.publicKeyPem],
      { env: env() },
    );
    expect(wrongKey.code).toBe(2);
    expect(wrongKey.stderr).toContain(`not by ${other.keyId}`);
  });
});
