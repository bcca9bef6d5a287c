/**
 * Per-call overhead of the MCP gateway: the same tool of the same upstream (test/mcp/support's test server,
 * a successful read) called directly and through `tokencircuit mcp` (preflight against the API, requested and
 * outcome events published, the result passed back), over stdio and over Streamable HTTP, in one run.
 * Open loop: call i is due at start + i/rate and its latency runs from that moment, so a stalled gateway
 * shows as latency, never as a lower offered rate. The two sides alternate in half-second blocks, each at the
 * full rate, and the upstreams run in processes of their own. The backend is real: the HTTP API on a fresh database of
 * the local Postgres, publishing to a fresh topic of the local Kafka (no projector or decision service: a
 * successful call waits for neither).
 *   npm run bench:mcp [-- --rate 200 --seconds 10 --warmup 2]
 * See docs/benchmarks.md ("MCP gateway"). Not a test: nothing here asserts a time.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { setFlagsFromString } from 'node:v8';
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
import { machineLine, loadLine } from './support/machine.js';
import { quantile } from './support/quantiles.js';
import { ServiceProcess } from './support/service-process.js';

const options = positiveIntOptions({ rate: 200, seconds: 10, warmup: 2 });
const GOAL_P99_OVERHEAD_MS = 5;
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
 * The HTTP upstream in a process of its own, as an MCP server always is: on this process's event loop its work
 * (an SDK server per request) would stall the timer of every call, and a gateway call crosses it twice.
 */
async function spawnHttpUpstream(): Promise<{ url: string; stop: () => Promise<void> }> {
  const child: ChildProcess = spawn(process.execPath, ['--import', TSX_LOADER, UPSTREAM_SCRIPT, '--http', '0'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = once(child, 'exit');
  const lines = createInterface({ input: child.stdout! });
  const url = await Promise.race([
    once(lines, 'line').then(([line]) => String(line).trim()),
    exited.then(([code]) => {
      throw new Error(`the HTTP upstream exited (${String(code)}) before it listened`);
    }),
  ]);
  return {
    url,
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

/**
 * Direct and gateway calls in alternating half-second blocks, each at the full rate, until each side has run
 * `seconds`: both sides see the same stretch of this machine's life — this process's growing heap and its major
 * collections, the broker's and Postgres's bursts — so the difference of their percentiles is the gateway's, not
 * the luck of which side ran later (run one after the other, the second side took this process's major
 * collections: docs/benchmarks.md, "Alternating blocks").
 */
async function sideBySide(
  label: string,
  direct: Client,
  gateway: Client,
  tool: string,
  seconds: number,
  tag: string,
): Promise<[number[], number[]]> {
  const blockSeconds = BLOCK_MS / 1000;
  const blocks = Math.max(1, Math.round(seconds / blockSeconds));
  const directLatencies: number[] = [];
  const gatewayLatencies: number[] = [];
  for (let block = 0; block < blocks; block++) {
    collectGarbage();
    directLatencies.push(
      ...(await openLoop(direct, 'read_report', options.rate, blockSeconds, `${label}-${tag}direct`)),
    );
    collectGarbage();
    gatewayLatencies.push(...(await openLoop(gateway, tool, options.rate, blockSeconds, `${label}-${tag}gateway`)));
  }
  return [directLatencies, gatewayLatencies];
}

/** Warm-up, then direct and gateway measured in alternating blocks; prints both and the overhead. */
async function compare(label: string, direct: Client, gateway: Client, tool: string): Promise<void> {
  await sideBySide(label, direct, gateway, tool, options.warmup, 'warm-');
  const [directLatencies, gatewayLatencies] = await sideBySide(label, direct, gateway, tool, options.seconds, '');
  const d = figures(directLatencies);
  const g = figures(gatewayLatencies);
  say(`${label.padEnd(6)} direct   p50 ${ms(d.p50)}  p99 ${ms(d.p99)}  max ${ms(d.max)}`);
  say(`${label.padEnd(6)} gateway  p50 ${ms(g.p50)}  p99 ${ms(g.p99)}  max ${ms(g.max)}`);
  const overhead = g.p99 - d.p99;
  say(
    `${label.padEnd(6)} overhead p50 ${ms(g.p50 - d.p50)}  p99 ${ms(overhead)}  (goal p99 < ${GOAL_P99_OVERHEAD_MS} ms: ${overhead < GOAL_P99_OVERHEAD_MS ? 'met' : 'not met'})  ${loadLine()}`,
  );
}

say(`bench:mcp  ${options.rate} calls/s, ${options.seconds} s measured after ${options.warmup} s warm-up, each side`);
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
  const upstream = await spawnHttpUpstream();
  const closers: Array<() => Promise<unknown>> = [];
  try {
    const config = (agent: string, servers: Record<string, unknown>) =>
      scratch.write(`${agent}.json`, gatewayConfig({ apiUrl, agent, principal: 'svc-bench', servers }));

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
    await compare('stdio', direct, stdioGateway.client, 'tickets__read_report');

    // Streamable HTTP: this process → the HTTP upstream (its own process), against this process → HTTP gateway →
    // the same upstream.
    const directHttp = await connectClient(new StreamableHTTPClientTransport(new URL(upstream.url)));
    closers.push(() => directHttp.close());
    const httpGateway = await spawnHttpGateway(
      config('bench-http', { tickets: { url: upstream.url, tools: TICKET_TOOLS } }),
    );
    closers.push(() => httpGateway.stop());
    const gatewayHttp = await connectHttpClient(httpGateway.url, API_KEY);
    closers.push(() => gatewayHttp.close());
    await compare('http', directHttp, gatewayHttp, 'tickets__read_report');
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
