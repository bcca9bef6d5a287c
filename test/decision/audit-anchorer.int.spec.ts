import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuditAnchorer } from '@tokencircuit/decision-relay';
import {
  appendInterventions,
  generateAnchorKeyPair,
  parseAnchorSigningKey,
  parseAnchorVerifyingKey,
  pgDatabase,
  tenantEventsHead,
  verifyAnchor,
  type SignedAnchor,
  type SqlDatabase,
} from '@tokencircuit/storage';
import { createTestDatabase, type TestDatabase } from '@tokencircuit/testing';
import { FileAnchorSink } from '../../apps/fleet/src/embedded/embedded-anchors.js';
import { interventionFixture } from '../support/postgres-fixtures.js';

const INSERT_EVENT = `INSERT INTO agent_events (id, tenant, run, type, occurred_at, cloud_event)
  VALUES ($1, $2, 'run-1', 'dev.tokencircuit.tool_call.outcome.v1', now(), $3::json)`;

/** The anchorer against real Postgres, anchoring to the embedded mode's file sink. */
describe('AuditAnchorer: horizon, resume and key rotation', () => {
  let db: TestDatabase;
  let sql: SqlDatabase;
  let dir: string;
  const key = parseAnchorSigningKey(generateAnchorKeyPair().privateKeyPem);
  const fileAnchors = (): SignedAnchor[] =>
    readFileSync(join(dir, 'anchors.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as SignedAnchor);
  const anchorerWith = (signing = key) =>
    new AuditAnchorer(sql, new FileAnchorSink(join(dir, 'anchors.jsonl')), signing);
  const event = (id: string, tenant: string) => db.pool.query(INSERT_EVENT, [id, tenant, JSON.stringify({ id })]);

  beforeAll(async () => {
    db = await createTestDatabase('tc_audit_anchorer');
    sql = pgDatabase(db.pool);
    dir = mkdtempSync(join(tmpdir(), 'tc-anchorer-'));
    await event('e-1', 'acme');
    await event('e-2', 'globex');
    const client = await db.pool.connect();
    try {
      await appendInterventions(client, [interventionFixture('i-1', 'acme')]);
    } finally {
      client.release();
    }
  });
  afterAll(async () => {
    await db?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('anchors every tenant once, signed, with what the tables hold; an idle round publishes nothing', async () => {
    const anchorer = anchorerWith();
    const anchors = await anchorer.anchor();
    expect(anchors.map((a) => [a.tenant, a.events.count, a.chain === null]).sort()).toEqual([
      ['acme', 1, false],
      ['globex', 1, true],
    ]);
    const verifying = parseAnchorVerifyingKey(generateAnchorKeyPair().publicKeyPem);
    expect(() => verifyAnchor(fileAnchors()[0], verifying)).toThrow(/not by/);
    const own = { publicKey: key.publicKey, keyId: key.keyId };
    for (const a of fileAnchors()) {
      verifyAnchor(a, own);
      expect(await tenantEventsHead(db.pool, a.tenant, a.events.through)).toEqual(a.events);
    }
    await expect(anchorer.anchor()).resolves.toEqual([]);
  });

  it('an insert still running with a lower seq is never skipped: the round waits for it or tries again', async () => {
    const anchorer = anchorerWith();
    const slow = await db.pool.connect();
    try {
      await slow.query('BEGIN');
      await slow.query(INSERT_EVENT, ['e-slow', 'acme', '{"id":"e-slow"}']); // takes its seq now, commits later
      await event('e-fast', 'acme'); // a higher seq, committed first
      // The horizon's lock waits for the open insert (2 s at most): this round gives up rather than skip it.
      await expect(anchorer.anchor()).resolves.toEqual([]);
      await slow.query('COMMIT');
    } finally {
      slow.release();
    }
    const [acme] = await anchorer.anchor();
    expect(acme).toMatchObject({ tenant: 'acme', events: { count: 3 } });
    expect(await tenantEventsHead(db.pool, 'acme', acme!.events.through)).toEqual(acme!.events);
  });

  it('a restart resumes from audit_anchor_heads (nothing re-published); a new key re-signs every tenant once', async () => {
    await expect(anchorerWith().anchor()).resolves.toEqual([]);
    const rotated = parseAnchorSigningKey(generateAnchorKeyPair().privateKeyPem);
    const anchorer = anchorerWith(rotated);
    const resigned = await anchorer.anchor();
    expect(resigned.map((a) => [a.tenant, a.keyId]).sort()).toEqual([
      ['acme', rotated.keyId],
      ['globex', rotated.keyId],
    ]);
    await expect(anchorer.anchor()).resolves.toEqual([]);
  });
});
