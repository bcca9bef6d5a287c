import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { agentEventToCloudEvent, identityOfEvent, type AgentEvent } from '@tokencircuit/contracts';
import {
  advanceEventsHead,
  agentEventRows,
  insertAgentEvents,
  migrate,
  NO_EVENTS,
  pgDatabase,
  readStoredEventPage,
  tenantEventsHead,
  type DigestedEvent,
  type EventsHead,
  type PositionedAgentEvent,
} from '@tokencircuit/storage';
import { createTestDatabase, generateTrace, type TestDatabase } from '@tokencircuit/testing';
import { migrationsBefore, positioned } from './support/migrations-before.js';
import { insertPre0048AgentEvents } from '../../libs/storage/src/spec-support/pre-0048-insert-agent-events.js';

const TRACEPARENT = `00-${'e'.repeat(32)}-${'f'.repeat(16)}-01`;

/** Every third event with a trace context, as the SDK's spans leave it. */
const withTraces = (events: PositionedAgentEvent[]): PositionedAgentEvent[] =>
  events.map((e, i) => (i % 3 === 0 ? { ...e, cloudEvent: agentEventToCloudEvent(e.event, TRACEPARENT) } : e));

// The events digest's columns as the anchorer read them before 0048 (read-digested-events.ts): the column's text.
const DIGESTED_BEFORE = `SELECT seq::text AS seq, id, tenant, run, agent, type,
  to_char(occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS occurred_at, cloud_event::text AS cloud_event
  FROM agent_events ORDER BY agent_events.seq`;

interface DigestedRow {
  seq: string;
  id: string;
  tenant: string;
  run: string | null;
  agent: string | null;
  type: string;
  occurred_at: string;
  cloud_event: string;
}

const digested = (r: DigestedRow): DigestedEvent => ({
  seq: Number(r.seq),
  id: r.id,
  tenant: r.tenant,
  run: r.run,
  agent: r.agent,
  type: r.type,
  occurredAt: r.occurred_at,
  cloudEvent: r.cloud_event,
});

/** Each tenant's events head through `through`, from digested rows in seq order. */
const headsOf = (rows: readonly DigestedEvent[], through: number): Map<string, EventsHead> => {
  const byTenant = new Map<string, DigestedEvent[]>();
  for (const row of rows) byTenant.set(row.tenant, [...(byTenant.get(row.tenant) ?? []), row]);
  return new Map([...byTenant].map(([tenant, events]) => [tenant, advanceEventsHead(NO_EVENTS, events, through)]));
};

describe('migration 0048 (the event row without its envelope twice) on a database the build before it filled', () => {
  let db: TestDatabase | undefined;
  let folder: string | undefined;
  afterAll(async () => {
    await db?.drop();
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  it('loses no event and rewrites none; every stored text, digest and anchors head reads back identical, and the new build cuts its own rows to the same texts', async () => {
    db = await createTestDatabase('tc_migration_0048', { migrate: false });
    folder = migrationsBefore(48);
    await migrate(db.url, { migrationsFolder: folder });
    const database = pgDatabase(db.pool);
    const trace = generateTrace({ events: 1_200, seed: 48 });
    const [older, newer] = [trace.slice(0, 800), trace.slice(800)];
    // An event whose time is not the canonical UTC milliseconds: stored whole before and after.
    const offsetTime = { ...newer[0]!, id: 'offset-time', time: '2026-11-01T02:00:00.5+02:00' } as AgentEvent;

    const olderRows = withTraces(positioned(older, 0));
    await database.transaction((tx) => insertPre0048AgentEvents(tx, olderRows));
    const before = (await db.pool.query<DigestedRow>(DIGESTED_BEFORE)).rows.map(digested);
    const digestsBefore = (
      await db.pool.query<{ id: string; digest: string }>(
        'SELECT id, tokencircuit_event_digest(cloud_event) AS digest FROM agent_events',
      )
    ).rows;
    const throughBefore = before.at(-1)!.seq;
    expect(before).toHaveLength(older.length);

    await migrate(db.url);
    const columns = await db.pool.query<{ whole: number; cut: number }>(
      `SELECT count(*) FILTER (WHERE cloud_event IS NOT NULL)::int AS whole,
              count(*) FILTER (WHERE cloud_event IS NULL)::int AS cut FROM agent_events`,
    );
    expect(columns.rows).toEqual([{ whole: older.length, cut: 0 }]);
    for (const [tenant, head] of headsOf(before, throughBefore)) {
      expect(await tenantEventsHead(database, tenant, throughBefore, 97)).toEqual(head);
    }

    // This build stores the rest, cut after their envelopes (the offset-time event whole), in two transactions.
    const newerRows = withTraces(positioned([...newer, offsetTime], older.length));
    await database.transaction(async (tx) => {
      await insertAgentEvents(tx, agentEventRows(newerRows.slice(0, 200)));
    });
    await database.transaction(async (tx) => {
      await insertAgentEvents(tx, agentEventRows(newerRows.slice(200)));
    });
    const stored = await db.pool.query<{ id: string; cut: boolean }>(
      'SELECT id, cloud_event IS NULL AS cut FROM agent_events WHERE seq > $1',
      [throughBefore],
    );
    expect(stored.rows.filter((r) => r.cut)).toHaveLength(newer.length);
    expect(stored.rows.filter((r) => !r.cut).map((r) => r.id)).toEqual(['offset-time']);

    // Every text is what the build before stored, or would have stored: the digest over them is the same.
    const allRows = [...olderRows, ...newerRows];
    const expectedText = new Map(allRows.map((e) => [e.event.id, JSON.stringify(e.cloudEvent)]));
    const afterRows = (
      await db.pool.query<DigestedRow>(
        DIGESTED_BEFORE.replace('cloud_event::text', 'tokencircuit_cloud_event(agent_events)::text'),
      )
    ).rows.map(digested);
    expect(afterRows).toHaveLength(allRows.length);
    for (const row of afterRows) expect(row.cloudEvent).toBe(expectedText.get(row.id));
    expect(afterRows.slice(0, before.length)).toEqual(before);
    const through = afterRows.at(-1)!.seq;
    const expectedHeads = headsOf(
      afterRows.map((row) => ({ ...row, cloudEvent: expectedText.get(row.id)! })),
      through,
    );
    for (const [tenant, head] of expectedHeads) {
      expect(await tenantEventsHead(database, tenant, through, 97)).toEqual(head);
    }

    // Replay's pages read the same events, and the conflict check names the digests the build before computed.
    const page = await readStoredEventPage(database, { schema: 'public', after: '0', limit: allRows.length + 1 });
    expect(page.map((r) => r.cloudEvent)).toEqual(allRows.map((e) => JSON.parse(JSON.stringify(e.cloudEvent))));
    const digestsAfter = (
      await db.pool.query<{ id: string; digest: string }>(
        `SELECT id, tokencircuit_event_digest(tokencircuit_cloud_event(agent_events)) AS digest
           FROM agent_events WHERE id = ANY($1::text[])`,
        [digestsBefore.map((r) => r.id)],
      )
    ).rows;
    expect(new Map(digestsAfter.map((r) => [r.id, r.digest]))).toEqual(
      new Map(digestsBefore.map((r) => [r.id, r.digest])),
    );
    const changed = (e: PositionedAgentEvent): PositionedAgentEvent => ({
      ...e,
      cloudEvent: { ...(e.cloudEvent as Record<string, unknown>), data: { changed: true } },
    });
    const [oldOne, newOne] = [olderRows[5]!, newerRows[5]!];
    const conflicts = await database.transaction((tx) =>
      insertAgentEvents(tx, agentEventRows([changed(oldOne), changed(newOne)])),
    );
    const wholeDigest = await db.pool.query<{ digest: string }>(
      'SELECT tokencircuit_event_digest($1::json) AS digest',
      [JSON.stringify(newOne.cloudEvent)],
    );
    expect(conflicts.inserted.size).toBe(0);
    expect(conflicts.conflicts).toEqual(
      new Map([
        [identityOfEvent(oldOne.event), digestsBefore.find((r) => r.id === oldOne.event.id)!.digest],
        [identityOfEvent(newOne.event), wholeDigest.rows[0]!.digest],
      ]),
    );
    expect(await db.pool.query('SELECT count(*)::int AS n FROM agent_events').then((r) => r.rows[0].n)).toBe(
      allRows.length,
    );
  });
});
