import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  appendEpisodeEvents,
  openAuditBatch,
  pgDatabase,
  readInterventionChain,
  verifyTenantChain,
  type SqlDatabase,
} from '@tokencircuit/storage';
import { createTestDatabase, type TestDatabase } from '@tokencircuit/testing';
import { asRole } from '../../libs/storage/src/spec-support/as-role.js';
import { episodeStep } from '../../libs/storage/src/spec-support/episode-steps.js';
import { interventionFixture } from '../support/postgres-fixtures.js';
import { waitForAdvisoryLockWaiter } from './support/advisory-lock-waiter.js';

const step = (eventId: string, keyId: string, episode: number, tenant = 'acme') => ({
  ...episodeStep({ eventId, keyId, tenant, episodeId: `${tenant}-${keyId}-${episode}` }),
  episode,
});

const eventIds = (map: ReadonlyMap<string, readonly { eventId: string }[]>) =>
  Object.fromEntries([...map].map(([key, steps]) => [key, steps.map((s) => s.eventId)]));

/** What a relay round's write does: the batch opened, then both kinds of row in one statement. */
describe('openAuditBatch: a decision round appended in three statements', () => {
  let db: TestDatabase;
  let sql: SqlDatabase;

  beforeAll(async () => {
    db = await createTestDatabase('tc_audit_batch');
    sql = pgDatabase(db.pool);
    await appendEpisodeEvents(sql, [
      step('k1-e1-trigger', 'k-1', 1),
      step('k1-e1-resolve', 'k-1', 1),
      step('k1-e2-trigger', 'k-1', 2),
      step('k1-e2-escalate', 'k-1', 2),
      step('k2-e1-trigger', 'k-2', 1),
      step('globex-k1-trigger', 'k-1', 7, 'globex'),
    ]);
  });
  afterAll(async () => db?.drop());

  it("reads each key's steps of its latest episode only, oldest first, within the key's tenant", async () => {
    const batch = await asRole(db.pool, 'tokencircuit_writer', (tx) =>
      openAuditBatch(
        tx,
        [],
        [
          { tenant: 'acme', keyId: 'k-1' },
          { tenant: 'acme', keyId: 'k-2' },
          { tenant: 'acme', keyId: 'k-1' },
          { tenant: 'acme', keyId: 'k-never-failed' },
        ],
      ),
    );
    expect(eventIds(batch.episodeSteps)).toEqual({
      'k-1': ['k1-e2-trigger', 'k1-e2-escalate'],
      'k-2': ['k2-e1-trigger'],
    });
  });

  it('writes the interventions and the episode steps in one statement, as the service role', async () => {
    const results = await asRole(db.pool, 'tokencircuit_writer', async (tx) => {
      const batch = await openAuditBatch(
        tx,
        [interventionFixture('w-1', 'writes'), interventionFixture('w-2', 'writes')],
        [{ tenant: 'writes', keyId: 'k-w' }],
      );
      // A step already recorded is left as it is (a retried round recomputes the same ids).
      return batch.write([step('w-trigger', 'k-w', 1, 'writes'), step('k2-e1-trigger', 'k-2', 1)]);
    });
    expect(results.map((r) => [r.intervention.id, r.appended])).toEqual([
      ['w-1', true],
      ['w-2', true],
    ]);
    expect(results.map((r) => r.intervention)).toEqual(await readInterventionChain(db.pool, 'writes'));
    await expect(verifyTenantChain(db.pool, 'writes')).resolves.toEqual({ ok: true, checked: 2 });
    const { rows } = await db.pool.query<{ event_id: string; tenant: string }>(
      `SELECT event_id, tenant FROM episode_events WHERE event_id IN ('w-trigger', 'k2-e1-trigger') ORDER BY event_id`,
    );
    expect(rows).toEqual([
      { event_id: 'k2-e1-trigger', tenant: 'acme' },
      { event_id: 'w-trigger', tenant: 'writes' },
    ]);
  });

  it('returns an id already stored as not appended, exactly as the chain holds it', async () => {
    await sql.transaction(async (tx) =>
      (await openAuditBatch(tx, [interventionFixture('again', 'again')], [])).write([]),
    );
    const [result] = await sql.transaction(async (tx) =>
      (
        await openAuditBatch(tx, [interventionFixture('again', 'again', { issuedAt: '2031-01-01T00:00:00Z' })], [])
      ).write([]),
    );
    expect(result!.appended).toBe(false);
    expect([result!.intervention]).toEqual(await readInterventionChain(db.pool, 'again'));
  });

  it("reads the chain's head after its lock is granted: a batch that waited chains after the rows it waited for", async () => {
    const tenant = 'queued';
    const { waiting } = await sql.transaction(async (first) => {
      await (await openAuditBatch(first, [interventionFixture('q-1', tenant)], [])).write([]);
      // The second batch waits for the tenant's lock while the first is open; the first commits after
      // the second has been waiting a while, so a head read before the lock would be the empty chain's.
      const waiting = sql.transaction(async (tx) =>
        (await openAuditBatch(tx, [interventionFixture('q-2', tenant)], [])).write([]),
      );
      await waitForAdvisoryLockWaiter(db.pool);
      return { waiting }; // not the promise itself: the first transaction must commit without waiting for it
    });
    const [appended] = await waiting;
    const chain = await readInterventionChain(db.pool, tenant);
    expect(chain.map((i) => i.id)).toEqual(['q-1', 'q-2']);
    expect(appended!.intervention.prevHash).toBe(chain[0]!.hash);
    await expect(verifyTenantChain(db.pool, tenant)).resolves.toEqual({ ok: true, checked: 2 });
  });

  it("holds a tenant's chain and a key's lifecycle until the transaction ends; other tenants and keys pass", async () => {
    const outcome = await sql.transaction(async (first) => {
      await openAuditBatch(first, [interventionFixture('h-1', 'held')], [{ tenant: 'acme', keyId: 'k-1' }]);
      const attempt = (tenant: string, keyId: string) =>
        sql
          .transaction(async (second) => {
            // Fails instead of waiting forever: the lock is held, not merely slow to come.
            await second.query("SET LOCAL lock_timeout = '200ms'");
            const batch = await openAuditBatch(
              second,
              [interventionFixture(`h-${tenant}-${keyId}`, tenant)],
              [{ tenant: 'acme', keyId }],
            );
            return eventIds(batch.episodeSteps);
          })
          .catch((e: unknown) => (e as { code?: string }).code);
      return {
        sameTenant: await attempt('held', 'k-2'),
        sameKey: await attempt('free', 'k-1'),
        neither: await attempt('free', 'k-2'),
      };
    });
    expect(outcome).toEqual({ sameTenant: '55P03', sameKey: '55P03', neither: { 'k-2': ['k2-e1-trigger'] } });
  });

  it('lets concurrent batches over the same tenants and keys, in opposite orders, queue instead of deadlocking', async () => {
    const tenants = ['north', 'south', 'east'];
    const keys = ['k-a', 'k-b', 'k-c'];
    const batch = (writer: number) => {
      const order = writer % 2 === 0 ? [0, 1, 2] : [2, 1, 0];
      return sql.transaction(async (tx) =>
        (
          await openAuditBatch(
            tx,
            order.map((i) => interventionFixture(`c-${writer}-${tenants[i]}`, tenants[i]!)),
            order.map((i) => ({ tenant: tenants[i]!, keyId: keys[i]! })),
          )
        ).write(order.map((i) => step(`c-${writer}-${keys[i]}`, keys[i]!, 1, tenants[i]))),
      );
    };
    await Promise.all(Array.from({ length: 8 }, (_, writer) => batch(writer)));
    for (const tenant of tenants) {
      await expect(verifyTenantChain(db.pool, tenant)).resolves.toEqual({ ok: true, checked: 8 });
    }
    const { rows } = await db.pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM episode_events WHERE event_id LIKE 'c-%'`,
    );
    expect(rows[0]!.n).toBe(24);
  });

  it('refuses a session that is not in a transaction, before taking a lock its end would drop', async () => {
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    try {
      await expect(openAuditBatch(client, [interventionFixture('bare-1', 'bare')], [])).rejects.toThrow(
        'run it inside a transaction',
      );
    } finally {
      await client.end();
    }
  });

  it('opens and writes nothing for nothing', async () => {
    const written = await sql.transaction(async (tx) => {
      const batch = await openAuditBatch(tx, [], []);
      expect(batch.episodeSteps.size).toBe(0);
      return batch.write([]);
    });
    expect(written).toEqual([]);
  });
});
