import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@tokencircuit/testing';
import { pgDatabase } from '../../../libs/storage/src/sql-database.js';
import { appendInterventions } from '../../../libs/storage/src/append-interventions.js';
import { interventionFor } from '../../../libs/storage/src/spec-support/read-fixtures.js';
import { verifyTenantChain } from '../../../libs/storage/src/verify-tenant-chain.js';

describe('verifyTenantChain (real Postgres)', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase('tc_verify_tenant_chain');
  });
  afterAll(async () => db?.drop());

  it("verifies a tenant's whole chain whatever the page size, and finds the row an edit broke", async () => {
    const session = pgDatabase(db.pool);
    await appendInterventions(
      session,
      Array.from({ length: 7 }, (_, i) => interventionFor('acme', `v-${i + 1}`)),
    );
    await appendInterventions(session, [interventionFor('globex', 'v-other')]);
    for (const pageSize of [1, 3, 7, 1000]) {
      expect(await verifyTenantChain(session, 'acme', { pageSize })).toEqual({ ok: true, checked: 7 });
    }
    expect(await verifyTenantChain(session, 'initech')).toEqual({ ok: true, checked: 0 });

    // The audit table refuses edits through its triggers; a superuser bypassing them is what verification catches.
    // One query, so the three statements share one connection of the pool.
    await db.pool.query(
      `SET session_replication_role = replica; UPDATE interventions SET artifact = '{"edited": true}' WHERE id = 'v-5'; SET session_replication_role = DEFAULT`,
    );
    const broken = await verifyTenantChain(session, 'acme', { pageSize: 2 });
    expect(broken.ok).toBe(false);
    expect(broken.checked).toBe(4);
    expect(await verifyTenantChain(session, 'globex')).toEqual({ ok: true, checked: 1 });
  });
});
