import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countStoredEvents } from '../events/count-stored-events.js';
import { readStoredEventPage } from '../events/read-stored-event-page.js';
import { migratePglite } from '../migrate-pglite.js';
import { pgliteDatabase } from '../pglite-database.js';
import type { SqlDatabase } from '../sql-database.js';
import { createSchema } from './create-schema.js';
import { disableOutboxNotify } from './disable-outbox-notify.js';
import { dropSchema } from './drop-schema.js';
import { readCurrentSchema } from './read-current-schema.js';
import { readDecidedOutboxIds } from './read-decided-outbox-ids.js';
import { readFailureStatePage } from './read-failure-state-page.js';
import { readFailureStateRows } from './read-failure-state-rows.js';
import { setSearchPath } from './set-search-path.js';

// Embedded replay runs the same operations as on Postgres, on PGlite's one session: the live schema is read
// qualified while the session's search_path points at the replay schema it rebuilds into.
describe('replay operations on PGlite (embedded mode)', () => {
  let pglite: PGlite;
  let db: SqlDatabase;

  beforeAll(async () => {
    pglite = new PGlite();
    await migratePglite(pglite);
    db = pgliteDatabase(pglite);
    await db.query(
      `INSERT INTO agent_events (id, tenant, run, agent, type, occurred_at, cloud_event)
       VALUES ('e-1', 'acme', 'run-1', 'agent-1', 'dev.tokencircuit.tool_call.outcome.v1', '2026-03-04T05:00:00Z', '{"id":"e-1"}'),
              ('e-2', 'globex', 'run-1', 'agent-1', 'dev.tokencircuit.tool_call.outcome.v1', '2026-03-04T06:00:00Z', '{"id":"e-2"}')`,
    );
    await db.query(
      `INSERT INTO failure_state (key_id, tenant, scope, run, tool_name, error_class, side_effect_boundary, status, budget,
         retry_count, verifier_status, state, version, updated_at)
       VALUES ('k-1', 'acme', 'run', 'run-1', 'sql.query', 'transient', false, 'open', 2, 0, 'not_required', '{}', 1,
         '2026-03-04T05:06:07.089Z')`,
    );
    await db.query(
      `INSERT INTO decision_outbox (id, tenant, key_id, state_version, state_snapshot) VALUES ('k-1@v1', 'acme', 'k-1', 1, '{}')`,
    );
  }, 60_000);
  afterAll(async () => db?.close());

  it('creates and migrates a replay schema, reads the live one qualified meanwhile, and drops it', async () => {
    const live = await readCurrentSchema(db);
    expect(live).toBe('public');
    await createSchema(db, 'replay_1');
    await setSearchPath(db, 'replay_1');
    await migratePglite(pglite, { schema: 'replay_1' });
    expect(await readCurrentSchema(db)).toBe('replay_1');
    await disableOutboxNotify(db);

    expect(await countStoredEvents(db, live)).toBe(2);
    expect(await countStoredEvents(db, live, { tenant: 'globex' })).toBe(1);
    const events = await readStoredEventPage(db, { schema: live, after: '0', limit: 10 });
    expect(events).toEqual([
      { position: '1', cloudEvent: { id: 'e-1' } },
      { position: '2', cloudEvent: { id: 'e-2' } },
    ]);
    const states = await readFailureStatePage(db, { schema: live, after: null, limit: 10 });
    expect(states.map((s) => [s.keyId, s.row.updated_at])).toEqual([['k-1', '2026-03-04T05:06:07.089000Z']]);
    expect((await readFailureStateRows(db, live, ['k-1'])).get('k-1')).toMatchObject({ status: 'open' });
    expect(await readDecidedOutboxIds(db, { schema: live, after: null, limit: 10 })).toEqual(['k-1@v1']);

    // The replay schema is its own: empty, and unqualified names land there.
    expect(await countStoredEvents(db, 'replay_1')).toBe(0);
    expect(await readDecidedOutboxIds(db, { schema: 'replay_1', after: null, limit: 10 })).toEqual([]);
    await db.query(
      `INSERT INTO decision_outbox (id, tenant, key_id, state_version, state_snapshot) VALUES ('r@v1', 'acme', 'k', 1, '{}')`,
    );
    expect(await readDecidedOutboxIds(db, { schema: 'replay_1', after: null, limit: 10 })).toEqual(['r@v1']);

    await setSearchPath(db, live);
    await dropSchema(db, 'replay_1');
    const { rows } = await db.query("SELECT 1 FROM pg_namespace WHERE nspname = 'replay_1'");
    expect(rows).toEqual([]);
    expect(await readDecidedOutboxIds(db, { schema: live, after: null, limit: 10 })).toEqual(['k-1@v1']);
  }, 60_000);
});
