import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendInterventions } from '@tokencircuit/storage';
import { createTestDatabase, type TestDatabase } from '@tokencircuit/testing';
import { interventionFixture } from '../support/postgres-fixtures.js';

describe('interventions is append-only, enforced by the database', () => {
  let db: TestDatabase;
  let seq: number;

  beforeAll(async () => {
    db = await createTestDatabase('tc_append_only');
    const client = await db.pool.connect();
    try {
      // A bare client (not in a transaction): appendInterventions opens and commits its own.
      seq = (await appendInterventions(client, [interventionFixture('i-1', 'acme')]))[0]!.intervention.seq;
    } finally {
      client.release();
    }
  });

  afterAll(async () => {
    await db?.drop();
  });

  // The connecting user is a superuser, the strongest writer there is: the refusal must not depend on privileges.
  it('refuses UPDATE and names the row', async () => {
    await expect(db.pool.query(`UPDATE interventions SET level = 'advise' WHERE id = 'i-1'`)).rejects.toThrow(
      `interventions is an append-only audit trail: UPDATE of intervention i-1 (seq ${seq}) refused`,
    );
  });

  it('refuses DELETE', async () => {
    await expect(db.pool.query(`DELETE FROM interventions WHERE id = 'i-1'`)).rejects.toThrow(
      'interventions is an append-only audit trail: DELETE of intervention i-1',
    );
  });

  it('refuses TRUNCATE', async () => {
    await expect(db.pool.query('TRUNCATE interventions')).rejects.toThrow(
      'interventions is an append-only audit trail: TRUNCATE refused',
    );
  });

  it('refuses an upsert that would rewrite an existing row', async () => {
    await expect(
      db.pool.query(
        `INSERT INTO interventions (id, tenant, level, failure_class, key_id, tool_name, next_action, artifact,
                                    policy_version, state_version, causing_event_ids, hash, issued_at)
         SELECT id, tenant, 'advise', failure_class, key_id, tool_name, next_action, artifact, policy_version,
                state_version, causing_event_ids, hash, issued_at FROM interventions WHERE id = 'i-1'
         ON CONFLICT (id) DO UPDATE SET level = EXCLUDED.level`,
      ),
    ).rejects.toThrow('append-only audit trail: UPDATE');
  });

  it('reports the refusal as insufficient_privilege (42501) so callers can tell it from a transient failure', async () => {
    await expect(db.pool.query(`DELETE FROM interventions`)).rejects.toMatchObject({ code: '42501' });
  });

  it('leaves the row exactly as it was appended', async () => {
    const { rows } = await db.pool.query(`SELECT level, count(*) OVER () AS total FROM interventions`);
    expect(rows).toEqual([{ level: 'block', total: '1' }]);
  });

  it('gives the writer role no UPDATE or DELETE privilege on it either', async () => {
    const client = await db.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query('SET LOCAL ROLE tokencircuit_writer');
      await expect(client.query(`UPDATE interventions SET level = 'advise'`)).rejects.toThrow(
        'permission denied for table interventions',
      );
    } finally {
      await client.query('ROLLBACK');
      client.release();
    }
  });
});
