/**
 * Core benchmark: classify + route + evolve + decide per event over an in-memory state store, on one
 * core. Run with `npm run bench:core` (optionally `-- --events 200000 --rounds 5`). See
 * docs/benchmarks.md ("Core") for how to read the figures.
 */
import { parseAgentEvent, type AgentEvent } from '@tokencircuit/contracts';
import { DEFAULT_CONFIG, decide, MemoryStateStore, projectRouted, route, type TokenCircuitConfig } from '@tokencircuit/governance';
import os from 'node:os';
import { generateTrace } from './core-trace.js';

const args = process.argv.slice(2);
const option = (name: string, fallback: number): number => {
  const at = args.indexOf(`--${name}`);
  if (at < 0) return fallback;
  const value = Number(args[at + 1]);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`--${name} needs a positive integer, got "${args[at + 1]}"`);
  return value;
};
const EVENTS = option('events', 200_000);
const ROUNDS = option('rounds', 5);

interface Counters {
  changed: number;
  outbox: number;
  decisions: number;
  sink: number;
}

/** The measured work for one event: exactly what the projector + decision service do in the core. */
function step(store: MemoryStateStore, event: AgentEvent, config: TokenCircuitConfig, counters: Counters): void {
  const routed = route(event, config);
  const result = projectRouted(store.candidates(routed), event, routed, config);
  if (result.changed.length === 0) return;
  for (const state of result.changed) store.put(state);
  counters.changed += result.changed.length;
  for (const entry of result.outbox) {
    const decision = decide(entry.snapshot, config);
    counters.decisions += 1;
    counters.sink += decision.safetyJustification.length;
  }
  counters.outbox += result.outbox.length;
}

function foldAll(events: readonly AgentEvent[], config: TokenCircuitConfig): { ns: bigint; counters: Counters; keys: number } {
  const store = new MemoryStateStore();
  const counters: Counters = { changed: 0, outbox: 0, decisions: 0, sink: 0 };
  const start = process.hrtime.bigint();
  for (let i = 0; i < events.length; i += 1) step(store, events[i]!, config, counters);
  const ns = process.hrtime.bigint() - start;
  return { ns, counters, keys: store.states.size };
}

function perEventLatencies(events: readonly AgentEvent[], config: TokenCircuitConfig): Float64Array {
  const store = new MemoryStateStore();
  const counters: Counters = { changed: 0, outbox: 0, decisions: 0, sink: 0 };
  const out = new Float64Array(events.length);
  for (let i = 0; i < events.length; i += 1) {
    const t0 = process.hrtime.bigint();
    step(store, events[i]!, config, counters);
    out[i] = Number(process.hrtime.bigint() - t0);
  }
  return out;
}

function timerOverheadNs(): number {
  const samples = new Float64Array(100_000);
  for (let i = 0; i < samples.length; i += 1) {
    const t0 = process.hrtime.bigint();
    samples[i] = Number(process.hrtime.bigint() - t0);
  }
  return percentile(samples.sort(), 0.5);
}

const percentile = (sorted: Float64Array, p: number): number => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

const config = DEFAULT_CONFIG;
const t0 = Date.now();
const trace = generateTrace(EVENTS, config);
// The core takes validated events; prove the generated ones are what the contract accepts.
for (let i = 0; i < trace.events.length; i += 97) parseAgentEvent(trace.events[i]);
console.log(`core benchmark: ${fmt(trace.events.length)} events generated and sampled against the contract in ${Date.now() - t0} ms`);
console.log(`  by type: ${Object.entries(trace.byType).map(([k, v]) => `${k} ${fmt(v)}`).join(', ')}`);
console.log(`  failures injected: ${Object.entries(trace.failures).map(([k, v]) => `${k} ${fmt(v)}`).join(', ')}`);
console.log(`  node ${process.version}, ${os.cpus()[0]?.model ?? 'unknown cpu'}, ${os.cpus().length} logical CPUs, single thread`);

foldAll(trace.events, config); // warm-up: JIT, inline caches, fingerprint caches
const rounds: number[] = [];
let last: ReturnType<typeof foldAll> | null = null;
for (let r = 0; r < ROUNDS; r += 1) {
  last = foldAll(trace.events, config);
  rounds.push(Number(last.ns) / trace.events.length);
}
const sortedRounds = [...rounds].sort((a, b) => a - b);
const median = sortedRounds[Math.floor(sortedRounds.length / 2)]!;
console.log(`\nthroughput (${ROUNDS} rounds after a warm-up round, fresh state each round)`);
console.log(`  ns/event: median ${fmt(median, 1)}, best ${fmt(sortedRounds[0]!, 1)}, worst ${fmt(sortedRounds[sortedRounds.length - 1]!, 1)}`);
console.log(`  events/s: median ${fmt(1e9 / median)}`);
console.log(`  per round: ${fmt(last!.keys)} failure keys, ${fmt(last!.counters.changed)} state changes, ${fmt(last!.counters.decisions)} decisions`);

const overhead = timerOverheadNs();
const latencies = perEventLatencies(trace.events, config).sort();
console.log(`\nper-event latency (separate pass, each event timed; timer overhead ≈ ${fmt(overhead)} ns included)`);
console.log(`  p50 ${fmt(percentile(latencies, 0.5))} ns, p90 ${fmt(percentile(latencies, 0.9))} ns, p99 ${fmt(percentile(latencies, 0.99))} ns, p99.9 ${fmt(percentile(latencies, 0.999))} ns, max ${fmt(latencies[latencies.length - 1]!)} ns`);
console.log(`\ngoal < 1000 ns/event: ${median < 1000 ? 'met' : 'NOT met'} (median ${fmt(median, 1)} ns)`);
