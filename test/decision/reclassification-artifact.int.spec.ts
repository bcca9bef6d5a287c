import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SpecAgent, Timeline } from '@tokencircuit/contracts/testing';
import { createGovernance, DEFAULT_CONFIG, type FailureState } from '@tokencircuit/governance';
import { appendInterventions, pgDatabase, readInterventionChain, verifyTenantChain } from '@tokencircuit/storage';
import { createTestDatabase, type TestDatabase } from '@tokencircuit/testing';
import { interventionFixture } from '../support/postgres-fixtures.js';

const governance = createGovernance(DEFAULT_CONFIG);

async function sqlVerify(pool: pg.Pool, tenant: string) {
  const { rows } = await pool.query(
    `SELECT ok, checked::int AS checked FROM tokencircuit_verify_intervention_chain($1)`,
    [tenant],
  );
  return rows[0] as { ok: boolean; checked: number };
}

/**
 * Issue 27.7 on real Postgres: an artifact that says the key was reclassified is appended to the tenant's
 * hash chain next to artifacts without the member (every artifact issued before it existed has none), and
 * the chain verifies in TypeScript and in SQL; the stored artifact reads back with the member intact.
 */
describe('reclassified artifacts in the append-only chain', () => {
  let db: TestDatabase;
  const timeline = new Timeline();
  const agent = new SpecAgent(timeline, 'acme', 'support-bot', 'run-4', {
    resourceClass: 'sql_namespace',
    resourceId: 'crm.tickets',
    effect: 'read',
  });
  const query = agent.call('sql_query', { arguments: { sql: "SELECT * FROM crm.tickets WHERE status = 'opne'" } });
  const empty = agent.succeeded(query, { empty: true, rowCount: 0 });
  const refuted = agent.verified(query, 'empty_result', 'refuted', { emptyCause: 'wrong_query' });

  const decided = (state: FailureState) => {
    const decision = governance.decide(state);
    return { decision, artifact: governance.artifact(state, decision) };
  };

  beforeAll(async () => {
    db = await createTestDatabase('tc_reclassified_chain');
  });
  afterAll(async () => {
    await db?.drop();
  });

  it('appends an unreclassified and a reclassified artifact; both verify, in TypeScript and in SQL', async () => {
    const before = [...governance.replay([empty]).states.values()][0]!;
    const after = [...governance.replay([empty, refuted]).states.values()][0]!;
    const rows = [before, after].map((state, i) => {
      const { decision, artifact } = decided(state);
      return interventionFixture(`reclassified-${i}`, 'acme', {
        failureClass: state.failureClass,
        keyId: state.keyId,
        level: decision.level,
        nextAction: decision.nextAction,
        artifact: artifact as unknown as Record<string, unknown>,
        stateVersion: state.version,
      });
    });
    expect(rows[0]!.artifact).not.toHaveProperty('reclassification');
    expect(rows[1]!.artifact).toMatchObject({
      failure_class: 'validation',
      equivalence_key: { error_class: 'ambiguous_effect' },
      reclassification: { from: 'ambiguous_effect', to: 'validation', by: 'verifier:empty_result:refuted:wrong_query' },
    });
    for (const row of rows) await pgDatabase(db.pool).transaction((tx) => appendInterventions(tx, [row]));

    await expect(verifyTenantChain(db.pool, 'acme')).resolves.toEqual({ ok: true, checked: 2 });
    await expect(sqlVerify(db.pool, 'acme')).resolves.toEqual({ ok: true, checked: 2 });
    const chain = await readInterventionChain(db.pool, 'acme');
    expect(chain[0]!.artifact).not.toHaveProperty('reclassification');
    expect(chain[1]!.artifact).toMatchObject({ reclassification: rows[1]!.artifact['reclassification'] });
  });
});
