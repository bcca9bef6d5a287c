// One tenant's reads against another tenant's preflight latency (issue 28: four loops of GET /v1/audit/verify
// raised another tenant's preflight p50 from 5.8 to 480 ms). The API runs as deployed (its own process, real
// Postgres, real Kafka), twice over the same seeded database: once with the read quota out of reach (what an
// unmetered API does) and once with the documented defaults. The victim sends preflights open-loop (latency from
// each request's scheduled start, so queueing cannot hide); the attacker runs `--loops` loops of full-page
// verification requests, each re-sent at once whatever the answer (a 429 does not slow it down).
//   npx tsx bench/noisy-neighbour.bench.ts [--chain 10000] [--rate 100] [--seconds 10] [--loops 4]
// Needs DATABASE_URL's server (default: local Postgres) and KAFKA_BROKERS (default 127.0.0.1:19092).
import { Worker } from 'node:worker_threads';
import pg from 'pg';
import { DEFAULT_CONFIG } from '@tokencircuit/governance';
import { permissionDenied, toolCall } from '@tokencircuit/contracts/testing';
import { seedFromEvents } from '../test/api/support/seed.js';
import { createBenchDatabase } from './support/bench-database.js';
import { positiveIntOptions } from './support/cli-options.js';
import { machineLine } from './support/machine.js';
import { fmt, latencyLine, quantile } from './support/quantiles.js';
import { ServiceProcess } from './support/service-process.js';

const options = positiveIntOptions({ chain: 10_000, rate: 100, seconds: 10, loops: 4 });
const KEYS = { victim: 'acme-bench-key-0123456789', attacker: 'globex-bench-key-0123456789' };

/** `count` distinct keys of `tenant` denied once each: one intervention each, so a chain of `count` rows. */
function denials(tenant: string, count: number) {
  return Array.from({ length: count }, (_, i) =>
    permissionDenied(tenant, toolCall({ agent: `agent-${i % 50}`, run: `run-${i}`, principal: `svc-${i}` })),
  );
}

async function post(url: string, key: string, body: unknown): Promise<number> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  await response.arrayBuffer();
  return response.status;
}

/** Open-loop preflights of the victim: request i is due at start + i / rate; latency counts from then. */
async function victimPreflights(base: string, seconds: number): Promise<number[]> {
  const latencies: number[] = [];
  const start = performance.now();
  const total = options.rate * seconds;
  const pending: Promise<void>[] = [];
  for (let i = 0; i < total; i++) {
    const due = start + (i * 1000) / options.rate;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const call = toolCall({ agent: 'agent-1', run: `run-${i % 20}`, principal: 'svc-1' });
    pending.push(
      post(`${base}/v1/preflight`, KEYS.victim, { call }).then((status) => {
        if (status !== 200) throw new Error(`victim preflight answered ${status}`);
        latencies.push(performance.now() - due);
      }),
    );
  }
  await Promise.all(pending);
  return latencies;
}

interface Attack {
  readonly answered: number;
  readonly refused: number;
  readonly rowsVerified: number;
}

// The attacker runs in a worker thread (its own event loop), so its loops cannot delay the victim's client: the
// victim's latencies are the server's. Plain JavaScript, evaluated as is.
const ATTACKER = `
const { parentPort, workerData } = require('node:worker_threads');
let stopped = false;
parentPort.on('message', () => (stopped = true));
const totals = { answered: 0, refused: 0, rowsVerified: 0 };
async function loop() {
  let cursor = null;
  while (!stopped) {
    const query = cursor === null ? '?limit=10000' : '?limit=10000&cursor=' + cursor;
    const response = await fetch(workerData.base + '/v1/audit/verify' + query, {
      headers: { authorization: 'Bearer ' + workerData.key },
    });
    const body = await response.json();
    if (response.status === 429) { totals.refused += 1; continue; }
    if (response.status !== 200) throw new Error('attacker verify answered ' + response.status);
    totals.answered += 1;
    totals.rowsVerified += body.result.checked;
    cursor = body.next;
  }
}
Promise.all(Array.from({ length: workerData.loops }, loop)).then(() => parentPort.postMessage(totals));
`;

/** `loops` loops of full-page verification of the attacker's chain, in a worker, until `stop` is called. */
function attack(base: string): { stop: () => Promise<Attack> } {
  const worker = new Worker(ATTACKER, { eval: true, workerData: { base, key: KEYS.attacker, loops: options.loops } });
  const result = new Promise<Attack>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  return {
    stop: async () => {
      worker.postMessage('stop');
      const totals = await result;
      await worker.terminate();
      return totals;
    },
  };
}

async function run(label: string, databaseUrl: string, quotaEnv: Record<string, string>): Promise<void> {
  const api = await ServiceProcess.start('api', 'API_HTTP_PORT', {
    ...process.env,
    DATABASE_URL: databaseUrl,
    KAFKA_BROKERS: process.env.KAFKA_BROKERS ?? '127.0.0.1:19092',
    TOKENCIRCUIT_API_KEYS: `acme:${KEYS.victim},globex:${KEYS.attacker}`,
    LOG_LEVEL: 'error',
    ...quotaEnv,
  });
  try {
    const base = `http://127.0.0.1:${api.port}`;
    // Under a loaded shared machine another process can take the port between the probe and the bind: make sure
    // the API answering is this one (it knows the victim's key).
    const probe = await post(`${base}/v1/preflight`, KEYS.victim, { call: toolCall({ run: 'probe' }) });
    if (probe !== 200) throw new Error(`port ${api.port} answered ${probe}: not the API this benchmark started`);
    await victimPreflights(base, 2); // warm-up: JIT, pool connections, plan cache
    const alone = await victimPreflights(base, options.seconds);
    const attacking = attack(base);
    const started = performance.now();
    const underAttack = await victimPreflights(base, options.seconds);
    const attacker = await attacking.stop();
    const elapsed = (performance.now() - started) / 1000;
    const p50 = (latencies: number[]) => quantile(Float64Array.from(latencies).sort(), 0.5).toFixed(1);
    console.log(`\n${label}`);
    console.log(`  victim preflight alone          ${latencyLine(alone)}`);
    console.log(`  victim preflight under attack   ${latencyLine(underAttack)}`);
    console.log(`  p50 ${p50(alone)} ms -> ${p50(underAttack)} ms`);
    console.log(
      `  attacker: ${fmt(attacker.answered)} verify pages answered (${fmt(attacker.rowsVerified / elapsed)} rows/s), ` +
        `${fmt(attacker.refused)} refused with 429`,
    );
  } finally {
    await api.stop();
  }
}

const database = await createBenchDatabase('tc_bench_neighbour');
try {
  console.log(machineLine());
  console.log(
    `chain ${fmt(options.chain)} rows (attacker), ${options.loops} verify loops, victim ${options.rate} preflights/s for ${options.seconds} s`,
  );
  const seeding = performance.now();
  const pool = new pg.Pool({ connectionString: database.url, max: 2 });
  try {
    await seedFromEvents(pool, denials('acme', 50), DEFAULT_CONFIG);
    await seedFromEvents(pool, denials('globex', options.chain), DEFAULT_CONFIG);
  } finally {
    await pool.end();
  }
  console.log(`seeded in ${((performance.now() - seeding) / 1000).toFixed(0)} s`);
  await run('reads unmetered (read quota out of reach)', database.url, {
    API_READ_UNITS_PER_SECOND: '1000000',
    API_READ_BURST_UNITS: '10000000',
  });
  await run('reads metered (documented defaults)', database.url, {});
} finally {
  await database.drop();
}
