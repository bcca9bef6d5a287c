/**
 * Core benchmark: classify + route + evolve + decide per event over an in-memory state store, on one
 * core. Run with `npm run bench:core` (optionally `-- --events 200000 --rounds 5 --batch 500`).
 * See docs/benchmarks.md ("Core") for how to read the figures.
 */
import { parseAgentEvent, type AgentEvent } from '@tokencircuit/contracts';
import {
  createGovernance,
  classify,
  DEFAULT_CONFIG,
  noProgressOf,
  MemoryStateStore,
  type Route,
  type Governance,
} from '@tokencircuit/governance';
import os from 'node:os';
import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';
import { generateTrace } from './core-trace.js';
import { referenceLine } from './support/reference-speed.js';

const args = process.argv.slice(2);
const option = (name: string, fallback: number): number => {
  const at = args.indexOf(`--${name}`);
  if (at < 0) return fallback;
  const value = Number(args[at + 1]);
  if (!Number.isInteger(value) || value <= 0)
    throw new Error(`--${name} needs a positive integer, got "${args[at + 1]}"`);
  return value;
};
const EVENTS = option('events', 200_000);
const ROUNDS = option('rounds', 5);
const BATCH = option('batch', 500);
// `--no-progress-detectors`: the same trace with noProgress.enabled false (no detector runs, no key opens).
const DETECTORS = !args.includes('--no-progress-detectors');
// `--no-producer-digests`: the same trace without the successes' argumentsDigest, as a producer older than it
// sends it, so the fold computes every success's call digest itself.
const PRODUCER_DIGESTS = !args.includes('--no-producer-digests');
// `--unique-messages`: every failure's error message made unique (a request id appended), so nothing a
// memo of repeated messages remembers is ever read again: the cost of a message seen for the first time.
const UNIQUE_MESSAGES = args.includes('--unique-messages');

interface Counters {
  changed: number;
  decisions: number;
  sink: number;
}

/** Evolve + decide for one routed event: what the projector and the decision service do in the core. */
function apply(
  store: MemoryStateStore,
  event: AgentEvent,
  routed: Route,
  governance: Governance,
  counters: Counters,
): void {
  const result = governance.project(store.candidates(routed), event, store, routed);
  store.remember(result.memory);
  if (result.changed.length === 0) return;
  for (const state of result.changed) store.put(state);
  counters.changed += result.changed.length;
  for (const entry of result.outbox) {
    counters.decisions += 1;
    counters.sink += governance.decide(entry.snapshot).safetyJustification.length;
  }
}

/**
 * Events arrive as the projector gets them: a batch is decoded from its wire form (untimed), routed
 * (classify runs inside route for outcomes) and folded, so the events are fresh in cache as they
 * would be. Timing a 200k-event array built minutes earlier would mostly time cache misses on the
 * benchmark's own data.
 */
/** Which kind of event a latency sample belongs to, for the per-kind means. */
const kindOf = (e: AgentEvent): string =>
  e.type === 'tool_call.outcome'
    ? e.data.status === 'succeeded' && e.data.result.empty !== true
      ? 'outcome (success)'
      : 'outcome (failure/unknown/empty)'
    : e.type;

function foldRound(
  batches: readonly string[],
  governance: Governance,
  perEvent: Float64Array | null,
  kinds: string[] | null = null,
  perBatch: { route: Float64Array; evolve: Float64Array } | null = null,
) {
  const store = new MemoryStateStore();
  const counters: Counters = { changed: 0, decisions: 0, sink: 0 };
  let routeNs = 0n;
  let evolveNs = 0n;
  let decodeNs = 0n;
  // On-CPU time of this process for the timed stages: on a shared machine wall time also counts the
  // time the scheduler gave the CPU to someone else.
  let cpuUs = 0;
  let n = 0;
  const routes: Route[] = new Array(BATCH);
  for (const wire of batches) {
    const d0 = process.hrtime.bigint();
    const events = JSON.parse(wire) as AgentEvent[];
    const t0 = process.hrtime.bigint();
    decodeNs += t0 - d0;
    if (perEvent === null) {
      const c0 = process.cpuUsage();
      for (let i = 0; i < events.length; i += 1) routes[i] = governance.route(events[i]!);
      const t1 = process.hrtime.bigint();
      for (let i = 0; i < events.length; i += 1) apply(store, events[i]!, routes[i]!, governance, counters);
      const t2 = process.hrtime.bigint();
      const c1 = process.cpuUsage(c0);
      cpuUs += c1.user + c1.system;
      routeNs += t1 - t0;
      evolveNs += t2 - t1;
      if (perBatch !== null) {
        perBatch.route[n / BATCH] = Number(t1 - t0);
        perBatch.evolve[n / BATCH] = Number(t2 - t1);
      }
    } else {
      for (let i = 0; i < events.length; i += 1) {
        const e0 = process.hrtime.bigint();
        apply(store, events[i]!, governance.route(events[i]!), governance, counters);
        perEvent[n + i] = Number(process.hrtime.bigint() - e0);
        if (kinds !== null) kinds[n + i] = kindOf(events[i]!);
      }
    }
    n += events.length;
  }
  return {
    ns: routeNs + evolveNs,
    routeNs,
    evolveNs,
    cpuNs: cpuUs * 1000,
    decodeNs,
    counters,
    keys: store.stateCount,
    memories: store.memoryCount,
  };
}

/** classify() alone over the same batches: how much of the per-event cost is classification. */
function classifyRound(batches: readonly string[], perBatch: Float64Array | null = null): bigint {
  let ns = 0n;
  let sink = 0;
  for (let b = 0; b < batches.length; b += 1) {
    const events = JSON.parse(batches[b]!) as AgentEvent[];
    const t0 = process.hrtime.bigint();
    for (const event of events) if (event.type === 'tool_call.outcome' && classify(event.data) !== null) sink += 1;
    const dt = process.hrtime.bigint() - t0;
    ns += dt;
    if (perBatch !== null) perBatch[b] = Number(dt);
  }
  return sink >= 0 ? ns : 0n;
}

/**
 * Sum over batches of each batch's fastest round. Every round does identical work per batch (fresh
 * state, same events), so the minimum filters out what a shared machine adds: descheduling, other
 * processes' cache pollution, a GC that another round happened to trigger elsewhere.
 */
const sumOfMinima = (rounds: readonly Float64Array[]): number => {
  let sum = 0;
  for (let b = 0; b < rounds[0]!.length; b += 1) sum += Math.min(...rounds.map((r) => r[b]!));
  return sum;
};

function timerOverheadNs(): number {
  const samples = new Float64Array(100_000);
  for (let i = 0; i < samples.length; i += 1) {
    const t0 = process.hrtime.bigint();
    samples[i] = Number(process.hrtime.bigint() - t0);
  }
  return percentile(samples.sort(), 0.5);
}

const percentile = (sorted: Float64Array, p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
const median = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const fmt = (n: number, digits = 0) =>
  n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

const config = DETECTORS
  ? DEFAULT_CONFIG
  : { ...DEFAULT_CONFIG, noProgress: { ...noProgressOf(DEFAULT_CONFIG), enabled: false } };
const governance = createGovernance(config);
const t0 = Date.now();
const trace = generateTrace(EVENTS, config);
if (!PRODUCER_DIGESTS)
  for (const event of trace.events) if (event.type === 'tool_call.outcome') delete event.data.argumentsDigest;
if (UNIQUE_MESSAGES)
  for (const event of trace.events)
    if (event.type === 'tool_call.outcome' && event.data.error?.message)
      event.data.error = { ...event.data.error, message: `${event.data.error.message} (request ${event.id})` };
// The core takes validated events; prove the generated ones are what the contract accepts.
for (let i = 0; i < trace.events.length; i += 97) parseAgentEvent(trace.events[i]);
const batches: string[] = [];
for (let i = 0; i < trace.events.length; i += BATCH) batches.push(JSON.stringify(trace.events.slice(i, i + BATCH)));
const count = trace.events.length;
console.log(
  `core benchmark: ${fmt(count)} events generated, sampled against the contract, in ${batches.length} batches of ${BATCH} (${Date.now() - t0} ms)`,
);
console.log(
  `  by type: ${Object.entries(trace.byType)
    .map(([k, v]) => `${k} ${fmt(v)}`)
    .join(', ')}`,
);
console.log(
  `  failures injected: ${Object.entries(trace.failures)
    .map(([k, v]) => `${k} ${fmt(v)}`)
    .join(', ')}`,
);
console.log(
  `  node ${process.version}, ${os.cpus()[0]?.model ?? 'unknown cpu'}, ${os.cpus().length} logical CPUs, load average ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}, single thread, ${referenceLine()}`,
);
console.log(`  no_progress detectors: ${DETECTORS ? 'on (the default policy)' : 'off (--no-progress-detectors)'}`);
console.log(
  `  successes' arguments digest: ${PRODUCER_DIGESTS ? "the producer's (argumentsDigest, as the SDK sends it)" : 'computed by the fold (--no-producer-digests)'}`,
);
console.log(
  `  failures' error messages: ${UNIQUE_MESSAGES ? 'each unique (--unique-messages: no repeat for a memo to remember)' : "the trace's, which repeat as a looping agent's do"}`,
);

foldRound(batches, governance, null); // warm-up: JIT and inline caches
classifyRound(batches);
const rounds: number[] = [];
const routeRounds: number[] = [];
const evolveRounds: number[] = [];
const cpuRounds: number[] = [];
const classifyRounds: number[] = [];
let last: ReturnType<typeof foldRound> | null = null;
const routeBatches: Float64Array[] = [];
const evolveBatches: Float64Array[] = [];
const classifyBatches: Float64Array[] = [];
for (let r = 0; r < ROUNDS; r += 1) {
  routeBatches.push(new Float64Array(batches.length));
  evolveBatches.push(new Float64Array(batches.length));
  classifyBatches.push(new Float64Array(batches.length));
  last = foldRound(batches, governance, null, null, { route: routeBatches[r]!, evolve: evolveBatches[r]! });
  rounds.push(Number(last.ns) / count);
  routeRounds.push(Number(last.routeNs) / count);
  evolveRounds.push(Number(last.evolveNs) / count);
  cpuRounds.push(last.cpuNs / count);
  classifyRounds.push(Number(classifyRound(batches, classifyBatches[r]!)) / count);
}
const sorted = [...rounds].sort((a, b) => a - b);
const med = median(rounds);
const classifyMed = median(classifyRounds);
console.log(
  `\nthroughput: classify + route + evolve + decide (${ROUNDS} rounds after a warm-up, fresh state each round)`,
);
console.log(
  `  ns/event: median ${fmt(med, 1)}, best ${fmt(sorted[0]!, 1)}, worst ${fmt(sorted[sorted.length - 1]!, 1)}  →  ${fmt(1e9 / med)} events/s`,
);
const filteredRoute = sumOfMinima(routeBatches) / count;
const filteredEvolve = sumOfMinima(evolveBatches) / count;
const filtered = filteredRoute + filteredEvolve;
const filteredClassify = sumOfMinima(classifyBatches) / count;
console.log(
  `  noise-filtered (each batch's fastest of ${ROUNDS} rounds): ${fmt(filtered, 1)} ns/event = route ${fmt(filteredRoute, 1)} ` +
    `(of which classify() ${fmt(filteredClassify, 1)}) + evolve & decide ${fmt(filteredEvolve, 1)}`,
);
console.log(
  `  on-CPU time of the process (excludes time the scheduler gave to other processes): median ${fmt(median(cpuRounds), 1)} ns/event, best ${fmt(Math.min(...cpuRounds), 1)}`,
);
console.log(
  `  stages (medians): route ${fmt(median(routeRounds), 1)} ns/event (classify() alone: ${fmt(classifyMed, 1)}), evolve + decide ${fmt(median(evolveRounds), 1)} ns/event`,
);
console.log(`  (decoding the batches from JSON, not timed above: ${fmt(Number(last!.decodeNs) / count, 1)} ns/event)`);
console.log(
  `  per round: ${fmt(last!.keys)} failure keys, ${fmt(last!.counters.changed)} state changes, ${fmt(last!.counters.decisions)} decisions, ${fmt(last!.memories)} run memories left (no_progress rings before a finding)`,
);

const overhead = timerOverheadNs();
const kinds: string[] = new Array(count);
// Every event timed in each of ROUNDS passes (fresh state each): the first pass gives the latency
// distribution as a loaded machine delivers it; each event's fastest pass gives what the event
// itself costs, free of the GC pauses and scheduler stalls that dominate a plain mean.
const passes: Float64Array[] = [];
for (let r = 0; r < ROUNDS; r += 1) {
  passes.push(new Float64Array(count));
  foldRound(batches, governance, passes[r]!, kinds);
}
const fastest = new Float64Array(count);
for (let i = 0; i < count; i += 1) fastest[i] = Math.min(...passes.map((p) => p[i]!)) - overhead;
const byKind = new Map<string, { n: number; ns: number; fastestNs: number }>();
for (let i = 0; i < count; i += 1) {
  const k = byKind.get(kinds[i]!) ?? { n: 0, ns: 0, fastestNs: 0 };
  k.n += 1;
  k.ns += passes[0]![i]!;
  k.fastestNs += fastest[i]!;
  byKind.set(kinds[i]!, k);
}
const latencies = passes[0]!.sort();
console.log(
  `\nper-event latency (every event timed; first of ${ROUNDS} passes; includes ≈ ${fmt(overhead)} ns timer overhead)`,
);
console.log(
  `  p50 ${fmt(percentile(latencies, 0.5))} ns, p90 ${fmt(percentile(latencies, 0.9))} ns, p99 ${fmt(percentile(latencies, 0.99))} ns, p99.9 ${fmt(percentile(latencies, 0.999))} ns, max ${fmt(latencies[latencies.length - 1]!)} ns`,
);
console.log(
  `  mean by kind (first pass): ${[...byKind].map(([k, v]) => `${k} ${fmt(v.ns / v.n)} ns (${fmt((100 * v.n) / count, 1)}% of events)`).join('; ')}`,
);
console.log(
  `  each event's fastest pass, timer overhead removed — mean by kind and its share of the per-event total ` +
    `(${fmt(fastest.reduce((a, b) => a + b, 0) / count)} ns/event):`,
);
for (const [k, v] of byKind) {
  console.log(
    `    ${k.padEnd(32)} ${fmt(v.fastestNs / v.n).padStart(7)} ns × ${fmt((100 * v.n) / count, 1).padStart(4)}% = ${fmt(v.fastestNs / count).padStart(4)} ns/event`,
  );
}
// What a round's store holds when it ends: the heap a run memory and a failure state keep alive (with their
// index entries and ids), after full collections. The scavenger copies and promotes all of it, so bytes held
// are what keeping state costs beyond computing it; unlike the timings, they do not depend on the machine.
v8.setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;
/** Live heap after full collections, once the concurrent sweeper has caught up. */
async function liveHeap(): Promise<number> {
  for (let i = 0; i < 3; i += 1) {
    collect();
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return process.memoryUsage().heapUsed;
}
function foldToStore(): MemoryStateStore {
  const store = new MemoryStateStore();
  for (const wire of batches)
    for (const event of JSON.parse(wire) as AgentEvent[]) {
      const routed = governance.route(event);
      const result = governance.project(store.candidates(routed), event, store, routed);
      store.remember(result.memory);
      for (const state of result.changed) store.put(state);
    }
  return store;
}
async function heldBytes(): Promise<{ perMemory: number; perState: number }> {
  // In a holder, so that no interpreter register keeps the store alive once it is dropped.
  const held: { store: MemoryStateStore | null } = { store: foldToStore() };
  const memories = held.store!.memoryCount;
  const states = held.store!.states.size;
  const withAll = await liveHeap();
  for (const id of [...held.store!.memories.keys()]) held.store!.remember({ id, memory: null });
  const withStates = await liveHeap();
  held.store = null;
  return {
    perMemory: memories === 0 ? 0 : (withAll - withStates) / memories,
    // With the store's indexes (a bucket per run and tool, per principal and resource).
    perState: (withStates - (await liveHeap())) / states,
  };
}
const held = await heldBytes();
console.log(
  `  heap held at the end of a round (after full collections): ${fmt(held.perMemory)} bytes per run memory, ${fmt(held.perState)} bytes per failure state`,
);

console.log(
  `\ngoal < 1000 ns/event: ${filtered < 1000 ? 'met' : 'NOT met'} (noise-filtered ${fmt(filtered, 1)} ns; without classify ${fmt(filtered - filteredClassify, 1)} ns; wall median ${fmt(med, 1)} ns)`,
);
