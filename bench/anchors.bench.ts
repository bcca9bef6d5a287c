// What audit anchors cost (docs/audit.md): a first anchor round over a stored trail (every event read and
// digested once), an incremental round after a batch of new events (what every DECISION_ANCHOR_INTERVAL_MS
// costs), and what `verify --anchor` adds on the API side (one tenant's events recomputed).
//   npm run bench:anchors -- [--events 200000] [--tenants 10] [--new 2000]
// Needs DATABASE_URL (a server where it may create and drop a database).
import { parseArgs } from 'node:util';
import pg from 'pg';
import { AuditAnchorer, type AnchorSink } from '@tokencircuit/decision-relay';
import {
  migrate,
  generateAnchorKeyPair,
  parseAnchorSigningKey,
  pgDatabase,
  tenantEventsHead,
  type SignedAnchor,
} from '@tokencircuit/storage';

const { values } = parseArgs({
  options: {
    events: { type: 'string', default: '200000' },
    tenants: { type: 'string', default: '10' },
    new: { type: 'string', default: '2000' },
  },
});
const events = Number(values.events);
const tenants = Number(values.tenants);
const added = Number(values.new);

/** Where the bench's anchors go: kept in memory to count them (the product's sinks are Kafka and a file). */
class CountingSink implements AnchorSink {
  readonly published: SignedAnchor[] = [];
  async publish(anchors: readonly SignedAnchor[]): Promise<void> {
    this.published.push(...anchors);
  }
}

/** n events of a realistic size (a ~600-byte CloudEvent each), spread over the tenants, in one statement. */
async function insertEvents(pool: pg.Pool, from: number, n: number): Promise<void> {
  for (let start = from; start < from + n; start += 20_000) {
    const count = Math.min(20_000, from + n - start);
    await pool.query(
      `INSERT INTO agent_events (id, tenant, run, agent, type, occurred_at, cloud_event)
       SELECT 'evt-' || i, 'tenant-' || (i % $3), 'run-' || (i / 50), 'agent-' || (i % 7),
              'dev.tokencircuit.tool_call.outcome.v2', now(),
              json_build_object('specversion', '1.0', 'id', 'evt-' || i, 'source', 'bench', 'tenantid', 'tenant-' || (i % $3),
                'data', json_build_object('call', json_build_object('tool', 'sql_query', 'attempt', i % 4,
                  'arguments', json_build_object('query', repeat('select * from t where id = ' || i || ' ', 8))),
                  'error', json_build_object('message', 'connection reset by peer', 'httpStatus', 503)))
         FROM generate_series($1::int, $2::int) AS i`,
      [start, start + count - 1, tenants],
    );
  }
}

const time = async <T>(work: () => Promise<T>): Promise<[T, number]> => {
  const started = process.hrtime.bigint();
  const value = await work();
  return [value, Number(process.hrtime.bigint() - started) / 1e6];
};

/** A fresh migrated database on DATABASE_URL's server, dropped at the end. */
async function benchDatabase(): Promise<{ pool: pg.Pool; drop(): Promise<void> }> {
  const server = process.env['DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const name = `tc_bench_anchors_${Date.now()}`;
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(server);
  url.pathname = `/${name}`;
  await migrate(url.toString());
  const pool = new pg.Pool({ connectionString: url.toString(), max: 4 });
  return {
    pool,
    async drop() {
      await pool.end();
      await admin.query(`DROP DATABASE ${name} WITH (FORCE)`);
      await admin.end();
    },
  };
}

const db = await benchDatabase();
try {
  await insertEvents(db.pool, 0, events);
  await db.pool.query('ANALYZE agent_events');
  const sink = new CountingSink();
  const anchorer = new AuditAnchorer(
    pgDatabase(db.pool),
    sink,
    parseAnchorSigningKey(generateAnchorKeyPair().privateKeyPem),
  );
  const [first, firstMs] = await time(() => anchorer.anchor());
  await insertEvents(db.pool, events, added);
  const [next, nextMs] = await time(() => anchorer.anchor());
  const [idle, idleMs] = await time(() => anchorer.anchor());
  const through = next[0]!.events.through;
  const [head, verifyMs] = await time(() => tenantEventsHead(db.pool, 'tenant-0', through));
  const rate = (n: number, ms: number) => Math.round((n * 1000) / ms);
  console.log(
    JSON.stringify(
      {
        events,
        tenants,
        firstRound: { anchors: first.length, ms: Math.round(firstMs), eventsPerSecond: rate(events, firstMs) },
        incrementalRound: { newEvents: added, anchors: next.length, ms: Math.round(nextMs) },
        idleRound: { anchors: idle.length, ms: Math.round(idleMs) },
        verifyOneTenant: {
          events: head.count,
          ms: Math.round(verifyMs),
          eventsPerSecond: rate(head.count, verifyMs),
          matchesAnchor: head.digest === next.find((a) => a.tenant === 'tenant-0')!.events.digest,
        },
      },
      null,
      2,
    ),
  );
} finally {
  await db.drop();
}
