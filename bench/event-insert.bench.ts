/**
 * The projector's event insert against COPY, the server's cheapest way in for many rows: the same stored rows
 * written to agent_events four ways, on one connection, in chunks, alternating round by round. Prints the
 * backend's CPU (schedstat) and the WAL of each form per event, and checks every form stored the same text.
 *   npm run bench:event-insert [-- --events 20000 --chunk 2000 --rounds 3 --seed 1]
 * The forms:
 *   insert        the projector's statement (insertAgentEvents): json_to_recordset, ON CONFLICT, conflicts found
 *   staged        COPY into a temporary table (no row-level security, no WAL), then the same statement from it
 *   copy          COPY straight into agent_events
 *   probe + copy  a primary-key probe of the chunk's identities, then COPY (what a COPY path would need to dedupe)
 * COPY FROM refuses a table with row-level security for a role subject to it (agent_events forces it, and no
 * service role is BYPASSRLS): the two COPY forms run only as a superuser or a BYPASSRLS role, and say so.
 * Not a test: nothing here asserts a time. See docs/benchmarks.md ("Event insert").
 */
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { sourceOfEvent } from '@tokencircuit/contracts';
import { consumedRecord } from '@tokencircuit/contracts/testing';
import { decode } from '@tokencircuit/projection';
import {
  agentEventRows,
  agentEventsInsertFrom,
  insertAgentEvents,
  pgSession,
  type PositionedAgentEvent,
} from '@tokencircuit/storage';
import { generateTrace } from '@tokencircuit/testing';
import { createBenchDatabase } from './support/bench-database.js';
import { positiveIntOptions } from './support/cli-options.js';
import { loadLine, machineLine } from './support/machine.js';
import { schedstatCpuMs } from './support/process-cpu.js';
import { fmt, quantile } from './support/quantiles.js';

const options = positiveIntOptions({ events: 20_000, chunk: 2_000, rounds: 3, seed: 1 });
const say = (line: string) => process.stdout.write(`${line}\n`);

let client: pg.Client;

async function copyIn(statement: string, data: Buffer): Promise<void> {
  await pipeline(Readable.from([data]), client.query(copyFrom(statement)));
}

const STAGING = 'pg_temp.bench_event_staging';
const STAGING_TABLE = `CREATE TEMP TABLE bench_event_staging (ord int, id text, tenant text, source text, run text,
  agent text, type text, occurred_at timestamptz, kafka_topic text, kafka_partition int, kafka_offset bigint,
  envelope_length int, type_version text, body text) ON COMMIT DELETE ROWS`;
// insertAgentEvents' statement with the staging table as its input.
const STAGED_INSERT = agentEventsInsertFrom(`SELECT * FROM ${STAGING}`);
const AGENT_EVENTS_COPY = `COPY agent_events (id, tenant, source, run, agent, type, occurred_at, cloud_event,
  type_version, cloud_event_tail, kafka_topic, kafka_partition, kafka_offset) FROM STDIN`;
const PROBE = `SELECT e.tenant, e.id, e.source
  FROM unnest($1::text[], $2::text[], $3::text[]) AS u(tenant, id, source) JOIN agent_events e USING (tenant, id, source)`;

type Field = string | number | null;
type Column =
  | 'id'
  | 'tenant'
  | 'source'
  | 'run'
  | 'agent'
  | 'type'
  | 'occurred_at'
  | 'kafka_topic'
  | 'kafka_partition'
  | 'kafka_offset'
  | 'envelope_length'
  | 'type_version';
type StatementRow = Record<Column, Field> & { readonly body: string };

/** The rows agentEventRows serialises for the statement, read back: the same columns (nulls included) and bodies. */
function statementRows(chunk: readonly PositionedAgentEvent[]): StatementRow[] {
  const rows = agentEventRows(chunk);
  const bodies = rows.bodies.toString('utf8').split('\u001e');
  return (JSON.parse(rows.rows) as Record<Column, Field>[]).map((columns, i) => ({ ...columns, body: bodies[i]! }));
}

// The columns both COPY forms write first and last, in the order their tables list them.
const identityColumns = (r: StatementRow): Field[] => [r.id, r.tenant, r.source, r.run, r.agent, r.type, r.occurred_at];
const kafkaColumns = (r: StatementRow): Field[] => [r.kafka_topic, r.kafka_partition, r.kafka_offset];

function stagedCopyText(chunk: readonly PositionedAgentEvent[]): Buffer {
  return copyText(
    statementRows(chunk).map((r, i) => [
      i,
      ...identityColumns(r),
      ...kafkaColumns(r),
      r.envelope_length,
      r.type_version,
      r.body,
    ]),
  );
}

function directCopyText(chunk: readonly PositionedAgentEvent[]): Buffer {
  return copyText(
    statementRows(chunk).map((r) => {
      // The envelope is ASCII (envelopeCut cuts only one it rebuilds), so a UTF-16 index is Postgres's substr.
      const cut = r.envelope_length === null ? null : Number(r.envelope_length);
      const whole = cut === null ? r.body : null;
      const tail = cut === null ? null : r.body.slice(cut);
      return [...identityColumns(r), whole, r.type_version, tail, ...kafkaColumns(r)];
    }),
  );
}

/** COPY's text format: tab-separated, `\N` for NULL, backslash, newline, carriage return and tab escaped. */
function copyText(rows: readonly (readonly (string | number | null | undefined)[])[]): Buffer {
  const escape = (field: string | number | null | undefined) =>
    field === null || field === undefined
      ? '\\N'
      : String(field).replace(/[\\\n\r\t]/g, (c) => ({ '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t' })[c]!);
  return Buffer.from(rows.map((row) => `${row.map(escape).join('\t')}\n`).join(''), 'utf8');
}

async function main(): Promise<void> {
  const db = await createBenchDatabase('tc_bench_event_insert');
  client = new pg.Client({ connectionString: db.url });
  await client.connect();
  try {
    say(`event insert benchmark — ${machineLine()}`);
    const positioned: PositionedAgentEvent[] = generateTrace({ events: options.events, seed: options.seed }).flatMap(
      (event, i) => {
        const decoded = decode(consumedRecord(event, { topic: 'bench.agent-events', partition: 0, offset: String(i) }));
        return decoded.ok ? [decoded.event] : [];
      },
    );
    const chunks: PositionedAgentEvent[][] = [];
    for (let at = 0; at < positioned.length; at += options.chunk) chunks.push(positioned.slice(at, at + options.chunk));
    const { may_copy: mayCopy } = (
      await client.query<{ may_copy: boolean }>(
        'SELECT rolsuper OR rolbypassrls AS may_copy FROM pg_roles WHERE rolname = current_user',
      )
    ).rows[0]!;
    say(
      `  ${fmt(positioned.length)} events in chunks of ${fmt(options.chunk)}, ${options.rounds} rounds; database ${db.name}; ` +
        `${mayCopy ? 'this role may COPY into agent_events (superuser or BYPASSRLS; no service role may)' : 'this role is subject to row-level security: the COPY forms are left out'}`,
    );
    await client.query(STAGING_TABLE);
    // Each form starts from an empty table; agent_events refuses TRUNCATE (migration 0029), so this throwaway
    // database's copy of it lets it through (no trigger fires on an insert, so the forms are measured as deployed).
    await client.query('ALTER TABLE agent_events DISABLE TRIGGER agent_events_refuse_truncate');
    const backend = (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
    const session = pgSession(client);

    const forms: [string, (chunk: readonly PositionedAgentEvent[]) => Promise<void>][] = [
      ['insert', (chunk) => insertAgentEvents(session, agentEventRows(chunk)).then(() => undefined)],
      [
        'staged',
        async (chunk) => {
          await copyIn(`COPY ${STAGING} FROM STDIN`, stagedCopyText(chunk));
          await client.query(STAGED_INSERT);
        },
      ],
    ];
    if (mayCopy) {
      forms.push(['copy', (chunk) => copyIn(AGENT_EVENTS_COPY, directCopyText(chunk))]);
      forms.push([
        'probe + copy',
        async (chunk) => {
          await client.query(PROBE, [
            chunk.map((p) => p.event.tenant),
            chunk.map((p) => p.event.id),
            chunk.map((p) => sourceOfEvent(p.event)),
          ]);
          await copyIn(AGENT_EVENTS_COPY, directCopyText(chunk));
        },
      ]);
    }

    const figures = new Map<string, { cpu: number[]; wal: number[]; digest: string }>();
    for (let round = 1; round <= options.rounds; round++) {
      for (const [name, write] of forms) {
        await client.query('TRUNCATE agent_events');
        await client.query('CHECKPOINT');
        const walFrom = (await client.query<{ lsn: string }>('SELECT pg_current_wal_insert_lsn()::text AS lsn'))
          .rows[0]!.lsn;
        const cpuFrom = schedstatCpuMs(backend) * 1e3;
        for (const chunk of chunks) {
          await client.query('BEGIN');
          await write(chunk);
          await client.query('COMMIT');
        }
        const cpu = (schedstatCpuMs(backend) * 1e3 - cpuFrom) / positioned.length;
        const wal =
          Number(
            (
              await client.query<{ bytes: string }>(
                'SELECT pg_wal_lsn_diff(pg_current_wal_insert_lsn(), $1)::text AS bytes',
                [walFrom],
              )
            ).rows[0]!.bytes,
          ) / positioned.length;
        const { digest } = (
          await client.query<{ digest: string }>(
            `SELECT md5(string_agg(concat_ws('|', tenant, id, source, run, agent, type, occurred_at, kafka_partition,
                  kafka_offset, tokencircuit_cloud_event(e)::text), E'\\n' ORDER BY tenant, id, source)) AS digest
             FROM agent_events e`,
          )
        ).rows[0]!;
        const entry = figures.get(name) ?? { cpu: [], wal: [], digest };
        if (entry.digest !== digest) throw new Error(`${name} stored other rows in round ${round} than in round 1`);
        entry.cpu.push(cpu);
        entry.wal.push(wal);
        figures.set(name, entry);
        say(
          `  round ${round} ${name.padEnd(13)} ${fmt(cpu, 1).padStart(6)} µs backend CPU/event  ${fmt(wal)} B WAL/event`,
        );
      }
    }
    const reference = figures.get('insert')!;
    for (const [name, { digest }] of figures) {
      if (digest !== reference.digest) throw new Error(`${name} stored other rows than the projector's insert`);
    }
    say('  median of the rounds (every form stored the same rows):');
    for (const [name, { cpu, wal }] of figures) {
      say(
        `    ${name.padEnd(13)} ${fmt(
          quantile(
            [...cpu].sort((x, y) => x - y),
            0.5,
          ),
          1,
        ).padStart(6)} µs backend CPU/event  ${fmt(
          quantile(
            [...wal].sort((x, y) => x - y),
            0.5,
          ),
        )} B WAL/event`,
      );
    }
    say(`  ${loadLine()}`);
  } finally {
    await client.end();
    if (process.env.BENCH_KEEP_DATABASE === '1') say(`  kept database ${db.name} (BENCH_KEEP_DATABASE=1)`);
    else await db.drop();
  }
}

await main();
