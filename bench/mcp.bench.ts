/**
 * Per-call overhead of the MCP gateway: the same tool of the same upstream (test/mcp/support's test server,
 * a successful read) called directly and through `tokencircuit mcp` (preflight against the API, requested and
 * outcome events published, the result passed back), over stdio and over Streamable HTTP, in one run.
 * Open loop: call i is due at start + i/rate and its latency runs from that moment, so a stalled gateway
 * shows as latency, never as a lower offered rate. The two sides alternate in half-second blocks, each at the
 * full rate, and the upstreams run in processes of their own. The backend is real: the HTTP API on a fresh database of
 * the local Postgres, publishing to a fresh topic of the local Kafka (no projector or decision service: a
 * successful call waits for neither). Over HTTP a third side calls the same upstream through a null relay (a process
 * that only forwards bytes: what a process hop alone costs here), and each side's blocks are charged the CPU every
 * process of the run used meanwhile (CPU per call: what a governed call costs the machine the sides share).
 *   npm run bench:mcp [-- --rate 200 --seconds 10 --warmup 2 --linger 50]
 * See docs/benchmarks.md ("MCP gateway"). Not a test: nothing here asserts a time.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { setFlagsFromString } from 'node:v8';
import { fileURLToPath } from 'node:url';
import { runInNewContext } from 'node:vm';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { requested, toolCall } from '@tokencircuit/contracts/testing';
import {
  connectClient,
  connectHttpClient,
  gatewayConfig,
  Scratch,
  spawnHttpGateway,
  spawnStdioGateway,
  TICKET_TOOLS,
  TSX_LOADER,
  UPSTREAM_SCRIPT,
} from '../test/mcp/support/gateway-harness.js';
import { withBenchRig } from './support/bench-rig.js';
import { positiveIntOptions } from './support/cli-options.js';
import { cpuSecondsOfCommand, cpuSecondsOfPid } from './support/process-cpu.js';
import { machineLine, loadLine } from './support/machine.js';
import { quantile } from './support/quantiles.js';
import { ServiceProcess } from './support/service-process.js';

// --linger: the gateways' eventLingerMs (its default, 50), to compare batchings of the background events.
const options = positiveIntOptions({ rate: 200, seconds: 10, warmup: 2, linger: 50 });
const GOAL_P99_OVERHEAD_MS = 5;
const RELAY_SCRIPT = fileURLToPath(new URL('./support/null-relay.ts', import.meta.url));
const API_KEY = 'acme-mcp-bench-key-0123456789';
const say = (line: string) => process.stdout.write(`${line}\n`);

/** Calls `read_report` at `rate` per second for `seconds`; each latency from the call's due time, in ms. */
async function openLoop(client: Client, tool: string, rate: number, seconds: number, tag: string): Promise<number[]> {
  const total = Math.round(rate * seconds);
  const latencies: number[] = [];
  const failures: string[] = [];
  const pending: Promise<void>[] = [];
  const started = performance.now();
  for (let i = 0; i < total; i++) {
    const due = started + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    pending.push(
      client
        .callTool({ name: tool, arguments: { report: 'revenue', query: `${tag}-${i}` } }, undefined, {
          timeout: 120_000,
        })
        .then(
          (result) => {
            if (result.isError === true) failures.push(JSON.stringify(result.content).slice(0, 200));
            latencies.push(performance.now() - due);
          },
          (error: unknown) => void failures.push(String(error)),
        ),
    );
  }
  await Promise.all(pending);
  // A call that failed or timed out is reported, not hidden: its latency is not in the figures.
  if (failures.length > 0) say(`${tag}: ${failures.length} of ${total} calls failed, first: ${failures[0]}`);
  if (latencies.length === 0) throw new Error(`every ${tag} call failed`);
  return latencies;
}

interface Figures {
  readonly p50: number;
  readonly p99: number;
  readonly max: number;
}
function figures(latencies: readonly number[]): Figures {
  const sorted = Float64Array.from(latencies).sort();
  return { p50: quantile(sorted, 0.5), p99: quantile(sorted, 0.99), max: sorted[sorted.length - 1]! };
}
const ms = (n: number) => `${n.toFixed(2)} ms`;

/**
 * The backend round trips a governed call makes, one at a time from this process (preflight, then one event
 * POST as requested and outcome each are): what the overhead is made of on this machine.
 */
async function backendRoundTrips(apiUrl: string, count: number): Promise<void> {
  const headers = { authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json' };
  const call = (i: number) =>
    toolCall({ agent: 'bench-direct', run: 'bench-direct-run', principal: 'svc-bench', tool: `bench.read.${i}` });
  const preflight: number[] = [];
  const ingest: number[] = [];
  for (let i = 0; i < count; i++) {
    let started = performance.now();
    const answer = await fetch(`${apiUrl}/v1/preflight`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ call: call(i) }),
    });
    await answer.arrayBuffer();
    preflight.push(performance.now() - started);
    started = performance.now();
    const event = requested('acme', call(i), new Date().toISOString());
    const accepted = await fetch(`${apiUrl}/v1/events`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ events: [event] }),
    });
    if (accepted.status !== 202)
      throw new Error(`POST /v1/events answered ${accepted.status}: ${await accepted.text()}`);
    ingest.push(performance.now() - started);
  }
  const p = (xs: number[]) => figures(xs);
  say(
    `backend one at a time: preflight p50 ${ms(p(preflight).p50)} p99 ${ms(p(preflight).p99)}; one event POST (Kafka ack) p50 ${ms(p(ingest).p50)} p99 ${ms(p(ingest).p99)}`,
  );
}

/**
 * A script in a process of its own that prints its URL on its first line: the HTTP upstream (as an MCP server
 * always is: on this process's event loop its work, an SDK server per request, would stall the timer of every
 * call, and a gateway call crosses it twice) and the null relay.
 */
async function spawnListening(
  what: string,
  args: readonly string[],
): Promise<{ url: string; pid: number; stop: () => Promise<void> }> {
  const child: ChildProcess = spawn(process.execPath, ['--import', TSX_LOADER, ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = once(child, 'exit');
  const lines = createInterface({ input: child.stdout! });
  const url = await Promise.race([
    once(lines, 'line').then(([line]) => String(line).trim()),
    exited.then(([code]) => {
      throw new Error(`the ${what} exited (${String(code)}) before it listened`);
    }),
  ]);
  return {
    url,
    pid: child.pid!,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
    },
  };
}

/** How long each side calls before the other takes over (alternating blocks, each at the full rate). */
const BLOCK_MS = 500;

/**
 * A full collection of this process, run between blocks when no call is in flight: the timing process's own
 * major collections (20–30 ms here, its heap grows with the calls' promises and latencies) otherwise land in
 * whichever side happens to run, and a handful of them decide a p99 of 2,000 calls.
 */
const collectGarbage: () => void = (() => {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
})();

/** One way of reaching the same tool: a client and the tool's name on the far side. */
interface Side {
  readonly name: string;
  readonly client: Client;
  readonly tool: string;
}

/**
 * The sides (direct first) in alternating half-second blocks, each at the full rate, until each has run
 * `seconds`: every side sees the same stretch of this machine's life — this process's growing heap and its major
 * collections, the broker's and Postgres's bursts — so the difference of their percentiles is the hop's, not
 * the luck of which side ran later (run one after the other, the second side took this process's major
 * collections: docs/benchmarks.md, "Alternating blocks").
 */
async function sideBySide(
  label: string,
  sides: readonly Side[],
  seconds: number,
  tag: string,
  cpu: CpuMeter | null = null,
): Promise<{ latencies: number[][]; cpu: Array<Map<string, number>> }> {
  const blockSeconds = BLOCK_MS / 1000;
  const blocks = Math.max(1, Math.round(seconds / blockSeconds));
  const latencies = sides.map((): number[] => []);
  const used = sides.map(() => new Map<string, number>());
  for (let block = 0; block < blocks; block++) {
    for (const [i, side] of sides.entries()) {
      collectGarbage();
      const before = cpu === null ? null : await cpu();
      latencies[i]!.push(
        ...(await openLoop(side.client, side.tool, options.rate, blockSeconds, `${label}-${tag}${side.name}`)),
      );
      if (before !== null) addCpu(used[i]!, before, await cpu!());
    }
  }
  return { latencies, cpu: used };
}

/** CPU seconds used so far by each process of the run, by name (null: unreadable here). */
type CpuMeter = () => Promise<Record<string, number | null>>;

function addCpu(
  into: Map<string, number>,
  before: Record<string, number | null>,
  after: Record<string, number | null>,
) {
  for (const [name, at] of Object.entries(after)) {
    const from = before[name];
    if (at === null || from === null || from === undefined) continue;
    into.set(name, (into.get(name) ?? 0) + (at - from));
  }
}

/**
 * A meter of this process, the named processes and every Postgres process. A call's work lands in the
 * processes of its side's block: in its own block, or in the next one for what it left running (an event POST
 * lingering 5 ms, the broker's flush), which is why the figures are per side and not per process alone.
 */
function cpuMeter(pids: Readonly<Record<string, number | null>>): CpuMeter {
  return async () => {
    const usage = process.cpuUsage();
    const out: Record<string, number | null> = { bench: (usage.user + usage.system) / 1e6 };
    for (const [name, pid] of Object.entries(pids)) out[name] = pid === null ? null : await cpuSecondsOfPid(pid);
    out.postgres = await cpuSecondsOfCommand('postgres');
    return out;
  };
}

/**
 * Warm-up, then the sides measured in alternating blocks; prints each and its overhead over the direct side.
 * The gateway's line carries the goal; a relay's line is the floor a process hop sets on this machine.
 */
async function compare(label: string, sides: readonly Side[], cpu: CpuMeter | null = null): Promise<void> {
  await sideBySide(label, sides, options.warmup, 'warm-');
  const run = await sideBySide(label, sides, options.seconds, '', cpu);
  const measured = run.latencies.map(figures);
  const d = measured[0]!;
  for (const [i, side] of sides.entries()) {
    const f = measured[i]!;
    say(`${label.padEnd(6)} ${side.name.padEnd(8)} p50 ${ms(f.p50)}  p99 ${ms(f.p99)}  max ${ms(f.max)}`);
  }
  for (const [i, side] of sides.entries()) {
    if (i === 0) continue;
    const f = measured[i]!;
    const overhead = f.p99 - d.p99;
    const verdict =
      side.name === 'gateway'
        ? `(goal p99 < ${GOAL_P99_OVERHEAD_MS} ms: ${overhead < GOAL_P99_OVERHEAD_MS ? 'met' : 'not met'})`
        : '(a process that only forwards: the floor of any gateway here)';
    say(
      `${label.padEnd(6)} ${`${side.name} overhead`.padEnd(8)} p50 ${ms(f.p50 - d.p50)}  p99 ${ms(overhead)}  ${verdict}  ${loadLine()}`,
    );
  }
  if (cpu === null) return;
  // CPU per call of each process while each side ran: what a call costs the machine the sides share.
  for (const [i, side] of sides.entries()) {
    const calls = run.latencies[i]!.length;
    const parts = [...run.cpu[i]!].map(([name, seconds]) => `${name} ${((seconds * 1e6) / calls).toFixed(0)}`);
    const total = [...run.cpu[i]!.values()].reduce((a, b) => a + b, 0);
    say(
      `${label.padEnd(6)} ${side.name.padEnd(8)} CPU µs/call: ${parts.join(', ')}; all ${((total * 1e6) / calls).toFixed(0)}`,
    );
  }
}

/** The API's own counters: event POSTs answered 202, and events ingested (every type). */
async function ingestCounts(apiUrl: string): Promise<{ posts: number; events: number }> {
  const text = await (await fetch(`${apiUrl}/metrics`)).text();
  let posts = 0;
  let events = 0;
  for (const line of text.split('\n')) {
    const value = Number(line.slice(line.lastIndexOf(' ') + 1));
    if (line.startsWith('tokencircuit_api_requests_total{route="/v1/events",method="POST",status="202"}'))
      posts += value;
    else if (line.startsWith('tokencircuit_api_ingested_events_total{')) events += value;
  }
  return { posts, events };
}

say(
  `bench:mcp  ${options.rate} calls/s, ${options.seconds} s measured after ${options.warmup} s warm-up, each side; gateway eventLingerMs ${options.linger}`,
);
say(machineLine());

await withBenchRig('mcp', { events: 6 }, async ({ kafka, db, topics }) => {
  // The API as deployed: its own process (not this one's event loop, which times the calls).
  const api = await ServiceProcess.start('api', 'API_HTTP_PORT', {
    ...process.env,
    KAFKA_BROKERS: kafka.brokers.join(','),
    DATABASE_URL: db.url,
    AGENT_EVENTS_TOPIC: topics.events,
    TOKENCIRCUIT_API_KEYS: `acme:${API_KEY}`,
    API_HTTP_HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
  });
  const apiUrl = `http://127.0.0.1:${api.port}`;
  await backendRoundTrips(apiUrl, 100);
  const scratch = new Scratch();
  const upstream = await spawnListening('HTTP upstream', [UPSTREAM_SCRIPT, '--http', '0']);
  const closers: Array<() => Promise<unknown>> = [];
  try {
    const config = (agent: string, servers: Record<string, unknown>) =>
      scratch.write(
        `${agent}.json`,
        gatewayConfig({ apiUrl, agent, principal: 'svc-bench', servers, extra: { eventLingerMs: options.linger } }),
      );

    // stdio: this process → upstream, against this process → gateway → its own upstream process.
    const direct = await connectClient(
      new StdioClientTransport({ command: process.execPath, args: ['--import', TSX_LOADER, UPSTREAM_SCRIPT] }),
    );
    closers.push(() => direct.close());
    const stdioGateway = await spawnStdioGateway(
      config('bench-stdio', {
        tickets: { command: process.execPath, args: ['--import', TSX_LOADER, UPSTREAM_SCRIPT], tools: TICKET_TOOLS },
      }),
      API_KEY,
    );
    closers.push(() => stdioGateway.close());
    await compare('stdio', [
      { name: 'direct', client: direct, tool: 'read_report' },
      { name: 'gateway', client: stdioGateway.client, tool: 'tickets__read_report' },
    ]);

    // Streamable HTTP: this process → the HTTP upstream (its own process), against this process → HTTP gateway →
    // the same upstream.
    const directHttp = await connectClient(new StreamableHTTPClientTransport(new URL(upstream.url)));
    closers.push(() => directHttp.close());
    // BENCH_SERVICE_NODE_ARGS (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof") profiles the HTTP gateway as well.
    const httpGateway = await spawnHttpGateway(
      config('bench-http', { tickets: { url: upstream.url, tools: TICKET_TOOLS } }),
      {},
      (process.env.BENCH_SERVICE_NODE_ARGS ?? '').split(/\s+/).filter(Boolean),
    );
    closers.push(() => httpGateway.stop());
    const gatewayHttp = await connectHttpClient(httpGateway.url, API_KEY);
    closers.push(() => gatewayHttp.close());
    // The same upstream behind a process that only forwards bytes: what the hop alone costs here.
    const relay = await spawnListening('null relay', [RELAY_SCRIPT, upstream.url]);
    closers.push(() => relay.stop());
    const relayHttp = await connectClient(new StreamableHTTPClientTransport(new URL(relay.url)));
    closers.push(() => relayHttp.close());
    const meter = cpuMeter({
      upstream: upstream.pid,
      relay: relay.pid,
      gateway: httpGateway.pid,
      api: api.pid,
      broker: await kafka.brokerPid(),
    });
    const postsBefore = await ingestCounts(apiUrl);
    await compare(
      'http',
      [
        { name: 'direct', client: directHttp, tool: 'read_report' },
        { name: 'relay', client: relayHttp, tool: 'read_report' },
        { name: 'gateway', client: gatewayHttp, tool: 'tickets__read_report' },
      ],
      meter,
    );
    const postsAfter = await ingestCounts(apiUrl);
    const posts = postsAfter.posts - postsBefore.posts;
    const events = postsAfter.events - postsBefore.events;
    say(
      `http   the API took ${events} events in ${posts} POST /v1/events during the leg (warm-up included): ${(events / Math.max(1, posts)).toFixed(1)} per POST`,
    );
    // How many governed calls the HTTP gateway answered without a preflight round trip (its change feed live).
    const health = (await (await fetch(new URL('/health', httpGateway.url))).json()) as { preflightAnswers?: unknown };
    say(`http   gateway preflight answers: ${JSON.stringify(health.preflightAnswers ?? 'not reported')}`);
  } finally {
    for (const close of closers.reverse()) await close().catch((error: unknown) => say(`cleanup: ${String(error)}`));
    await upstream.stop();
    await api.stop();
    scratch.remove();
  }
});
