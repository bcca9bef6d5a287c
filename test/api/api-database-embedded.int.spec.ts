import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAgentEvent, ToolCallSchema } from '@tokencircuit/contracts';
import { createGovernance, DEFAULT_CONFIG, type FailureState } from '@tokencircuit/governance';
import { migratePglite, pgliteDatabase } from '@tokencircuit/storage';
import type { ApiDatabase } from '@tokencircuit/api-http';
import { auditStore, listFailureStates, parseStateQuery } from '@tokencircuit/api-http';
import { apiDatabase } from '@tokencircuit/api-http';
import { permissionDenied, toolCall } from '@tokencircuit/contracts/testing';

const governance = createGovernance(DEFAULT_CONFIG);

/** The embedded mode's database port: the same SQL and the same row-level security on PGlite. */
describe('apiDatabase on PGlite (embedded mode)', () => {
  let pglite: PGlite;
  let db: ApiDatabase;
  const states: Record<string, FailureState> = {};

  beforeAll(async () => {
    pglite = new PGlite();
    await migratePglite(pglite);
    for (const tenant of ['acme', 'globex']) {
      const [state] = governance.replay([parseAgentEvent(permissionDenied(tenant))]).states.values();
      states[tenant] = state!;
      const k = state!.key;
      await pglite.query(
        `INSERT INTO failure_state (key_id, tenant, scope, run, principal, resource_id, tool_name, resource_class, auth_scope,
           error_class, side_effect_boundary, status, budget, retry_count, verifier_status, state, version, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18)`,
        [
          state!.keyId,
          tenant,
          k.scope,
          k.run,
          k.principal,
          k.resourceId,
          k.equivalenceKey.tool_name,
          k.equivalenceKey.resource_class,
          k.equivalenceKey.auth_scope,
          k.equivalenceKey.error_class,
          k.equivalenceKey.side_effect_boundary,
          state!.status,
          state!.budget,
          state!.retryCount,
          state!.verifierStatus,
          JSON.stringify(state),
          state!.version,
          state!.updatedAt,
        ],
      );
    }
    db = apiDatabase(pgliteDatabase(pglite));
  });
  afterAll(async () => {
    await db?.close();
  });

  it("reads a tenant's state under row-level security and finds nothing of another tenant's", async () => {
    const own = await db.tenants.read('acme', (session) => auditStore.state(session, states.acme!.keyId));
    expect(own).toMatchObject({ keyId: states.acme!.keyId, tenant: 'acme', status: 'blocked' });
    const theirs = await db.tenants.read('acme', (session) => auditStore.state(session, states.globex!.keyId));
    expect(theirs).toBeNull();
  });

  it('lists the tenant’s blocked states with the same SQL as on Postgres, under the same row-level security', async () => {
    const page = await db.tenants.read('acme', (session) =>
      listFailureStates(session, parseStateQuery({ blocked: 'true', limit: '1' })),
    );
    expect(page.items.map((s) => [s.keyId, s.status, s.updatedAt])).toEqual([
      [states.acme!.keyId, 'blocked', states.acme!.updatedAt],
    ]);
    expect(page.nextCursor).toBeNull();
    expect(await db.tenants.read('initech', (session) => listFailureStates(session, parseStateQuery({})))).toEqual({
      items: [],
      nextCursor: null,
    });
  });

  it('answers the preflight read with the fleet block of the principal, for that tenant only', async () => {
    const call = ToolCallSchema.parse(toolCall({ agent: 'agent-b', run: 'run-b' }));
    expect((await db.states.candidates('acme', call)).map((s) => s.keyId)).toEqual([states.acme!.keyId]);
    expect(await db.states.candidates('initech', call)).toEqual([]);
  });

  it('leaves the shared connection as it found it: no role or tenant setting survives a read', async () => {
    await db.tenants.read('globex', async () => undefined);
    const { rows } = await pglite.query<{ role: string; tenant: string | null }>(
      "SELECT current_user AS role, nullif(current_setting('tokencircuit.tenant', true), '') AS tenant",
    );
    expect(rows[0]).toEqual({ role: 'postgres', tenant: null });
  });
});
