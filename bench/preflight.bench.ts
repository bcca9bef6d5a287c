// Open-loop load on POST /v1/preflight of a running API: a fixed request rate, latency measured from
// each request's scheduled start, or its send when the timer sent it early (so a stalled server cannot hide its
// queueing: no coordinated omission).
//   npm run bench:preflight -- --url http://127.0.0.1:8080 --key <tenant key> --tenant acme --rate 1000 --seconds 10 [--seed]
// --seed writes a realistic fleet into DATABASE_URL first (as the writer): many runs with folded
// failure states and some fleet-wide blocks, so the reads hit real rows and indexes.
// Budgets on: start the API with TOKENCIRCUIT_POLICY_FILE=examples/policy-budgets.json (docs/budgets.md); every
// allowed preflight then reserves its estimate on the ledger (docs/benchmarks.md, "Preflight with spend budgets").
import http from 'node:http';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { createGovernance, DEFAULT_CONFIG } from '@tokencircuit/governance';
import { permissionDenied, requested, toolCall, unavailable } from '@tokencircuit/contracts/testing';
import { insertEvents, insertStates } from '../test/api/support/seed.js';
import { parseAgentEvent, type AgentEventInput } from '@tokencircuit/contracts';

const governance = createGovernance(DEFAULT_CONFIG);

const { values } = parseArgs({
  options: {
    url: { type: 'string', default: 'http://127.0.0.1:8080' },
    key: { type: 'string' },
    tenant: { type: 'string', default: 'acme' },
    rate: { type: 'string', default: '1000' },
    seconds: { type: 'string', default: '10' },
    runs: { type: 'string', default: '2000' },
    seed: { type: 'boolean', default: false },
  },
});
if (!values.key) throw new Error('--key <tenant API key> is required');
const rate = Number(values.rate);
const seconds = Number(values.seconds);
const runs = Number(values.runs);
const tenant = values.tenant!;

/** Run r's GET on an API endpoint: what the seed fails with and what the load asks about again. */
function httpGetCall(r: number, agent: string, attempt?: number) {
  return toolCall({
    agent,
    run: `run-${r}`,
    tool: 'http.get',
    resourceClass: 'api_endpoint',
    resourceId: null,
    authScope: null,
    principal: `svc-${r % 100}`,
    sqlStatement: null,
    httpMethod: 'GET',
    ...(attempt === undefined ? {} : { attempt }),
  });
}

async function seed(): Promise<void> {
  const pool = new pg.Pool({
    connectionString: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/tokencircuit',
  });
  const inputs: AgentEventInput[] = [];
  for (let r = 0; r < runs; r++) {
    const http = httpGetCall(r, `agent-${r % 50}`);
    inputs.push(requested(tenant, http), unavailable(tenant, http));
    if (r % 20 === 0)
      inputs.push(
        permissionDenied(tenant, toolCall({ agent: `agent-${r % 50}`, run: `run-${r}`, principal: `svc-${r % 100}` })),
      );
  }
  const events = inputs.map((i) => parseAgentEvent(i));
  await insertEvents(pool, events);
  const states = [...governance.replay(events).states.values()];
  await insertStates(pool, states);
  await pool.query('ANALYZE failure_state');
  await pool.end();
  process.stdout.write(`seeded ${events.length} events, ${states.length} failure states for tenant ${tenant}\n`);
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 128 });
const target = new URL('/v1/preflight', values.url);

function preflightOnce(body: string): Promise<{ status: number; allow: boolean }> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      target,
      {
        method: 'POST',
        agent,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          authorization: `Bearer ${values.key}`,
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (c: Buffer) => chunks.push(c));
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({
            status: response.statusCode ?? 0,
            allow: response.statusCode === 200 && (JSON.parse(text) as { allow: boolean }).allow,
          });
        });
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

function bodyFor(i: number): string {
  // A mix: most calls in runs with a transient failure on record, some principals blocked fleet-wide.
  const r = i % runs;
  const call =
    i % 4 === 0
      ? toolCall({ agent: 'agent-x', run: `run-${r}`, principal: `svc-${r % 100}` })
      : httpGetCall(r, 'agent-x', 2);
  return JSON.stringify({ call });
}

const quantile = (sorted: readonly number[], q: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

async function load(): Promise<void> {
  for (let i = 0; i < 200; i++) await preflightOnce(bodyFor(i)); // warm-up: JIT, connections, prepared statements
  const total = rate * seconds;
  const latencies: number[] = [];
  // From the moment the request was handed to the socket: what the API and the network took, without the
  // bench's own timer lateness (its whole-millisecond waits send a request up to ~1 ms after its schedule).
  const fromSend: number[] = [];
  const statuses = new Map<number, number>();
  let denied = 0;
  const started = performance.now();
  const inflight: Promise<void>[] = [];
  for (let i = 0; i < total; i++) {
    const scheduled = started + (i * 1000) / rate;
    // Timers fire on whole milliseconds, so a request goes out up to a millisecond before or after its
    // schedule. Its latency runs from whichever came first, its schedule or its send: a late send counts
    // the bench's lateness against the server (no coordinated omission), an early one is timed from its
    // send, never from a schedule the server had not yet seen.
    const wait = scheduled - performance.now();
    if (wait >= 1) await new Promise((resolve) => setTimeout(resolve, Math.floor(wait)));
    const body = bodyFor(i);
    const sent = performance.now();
    const from = Math.min(sent, scheduled);
    inflight.push(
      preflightOnce(body).then(({ status, allow }) => {
        const done = performance.now();
        latencies.push(done - from);
        fromSend.push(done - sent);
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
        if (!allow) denied += 1;
      }),
    );
  }
  await Promise.all(inflight);
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  fromSend.sort((a, b) => a - b);
  const line = (q: number, of = latencies) => `${quantile(of, q).toFixed(2)} ms`;
  process.stdout.write(
    [
      `requests ${total} in ${elapsed.toFixed(2)} s (${(total / elapsed).toFixed(0)} req/s offered ${rate}/s)`,
      `statuses ${JSON.stringify(Object.fromEntries(statuses))}, denied ${denied}`,
      `latency p50 ${line(0.5)}  p90 ${line(0.9)}  p99 ${line(0.99)}  p99.9 ${line(0.999)}  max ${latencies.at(-1)!.toFixed(2)} ms`,
      `from send p50 ${line(0.5, fromSend)}  p90 ${line(0.9, fromSend)}  p99 ${line(0.99, fromSend)}  p99.9 ${line(0.999, fromSend)}  max ${fromSend.at(-1)!.toFixed(2)} ms`,
    ].join('\n') + '\n',
  );
  agent.destroy();
}

if (values.seed) await seed();
await load();
