import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentEventToCloudEvent, parseAgentEvent, storableJson, type AgentEvent } from '@tokencircuit/contracts';
import { requested, toolCall } from '@tokencircuit/contracts/testing';
import { apiDatabase, type ApiDatabase } from '@tokencircuit/api-http';
import { agentEventRows, insertAgentEvents, migratePglite, pgliteDatabase } from '@tokencircuit/storage';
import { knownEventConflicts } from '../../libs/api-http/src/ingest/known-event-conflicts.js';

const event = (tenant: string, tool: string, at: string): AgentEvent =>
  parseAgentEvent(requested(tenant, toolCall({ agent: 'agent-a', run: 'run-a', tool }), at));

/**
 * The ingest conflict check where the database cannot take one message of several statements (embedded PGlite:
 * the tenant read's three statements, the same SQL): stored ids are found by identity first, and only those are
 * compared by body. On Postgres the same check runs in one message per read (test/api/ingest-conflicts.e2e.spec.ts).
 */
describe('knownEventConflicts on PGlite (embedded mode)', () => {
  let pglite: PGlite;
  let db: ApiDatabase;
  const stored = [
    event('acme', 'tickets.read', '2026-01-05T10:00:00.000Z'),
    event('acme', 'tickets.list', '2026-01-05T10:00:01.000Z'),
  ];

  beforeAll(async () => {
    pglite = new PGlite();
    await migratePglite(pglite);
    const sql = pgliteDatabase(pglite);
    await sql.transaction((tx) =>
      insertAgentEvents(
        tx,
        agentEventRows(
          stored.map((e, i) => ({
            event: e,
            cloudEvent: agentEventToCloudEvent(storableJson(e)),
            topic: 'agent-events',
            partition: 0,
            offset: String(i),
          })),
        ),
      ),
    );
    db = apiDatabase(sql);
  });
  afterAll(async () => {
    await db?.close();
  });

  it('finds nothing for new events and for the stored ones sent again unchanged (a retry)', async () => {
    expect(db.tenants.readAtOnce).toBeUndefined();
    const fresh = event('acme', 'tickets.create', '2026-01-05T10:00:02.000Z');
    await expect(knownEventConflicts(db, 'acme', [fresh, ...stored])).resolves.toEqual([]);
  });

  it('names a stored id sent with another body, by its position in the request, with the stored digest', async () => {
    const changed = { ...stored[1]!, time: '2026-01-05T10:09:09.000Z' } as AgentEvent;
    const fresh = event('acme', 'tickets.close', '2026-01-05T10:00:03.000Z');
    const conflicts = await knownEventConflicts(db, 'acme', [fresh, stored[0]!, changed]);
    expect(conflicts).toEqual([
      {
        index: 2,
        id: changed.id,
        source: expect.any(String),
        storedDigest: expect.stringMatching(/^sha256:[0-9a-f]{64}$/),
      },
    ]);
  });

  it("sees only the tenant's own events: another tenant reusing those ids conflicts with nothing", async () => {
    const theirs = stored.map((e) => ({ ...e, tenant: 'globex', time: '2026-01-05T11:00:00.000Z' }) as AgentEvent);
    await expect(knownEventConflicts(db, 'globex', theirs)).resolves.toEqual([]);
  });
});
