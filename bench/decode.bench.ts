/**
 * Decode benchmark: the projector's per-event decode path (Kafka record → CloudEvent → validated agent
 * event → redacted event) on one core, no Kafka, no Postgres. The same records go through the path as it
 * was (zod on every event, the oracle the property specs compare against) and as it is now, alternating
 * round by round so both see the same load; the figure is process CPU (process.cpuUsage) per event.
 *   npm run bench:decode [-- --events 10000 --rounds 7 --seed 1]
 * See docs/benchmarks.md ("Decode"). Not a test: nothing here asserts a time.
 */
import {
  cloudEventToAgentEvent,
  fromKafkaRecord,
  type AgentEvent,
  type CloudEvent,
  type KafkaRecord,
} from '@tokencircuit/contracts';
import { redactEvent } from '@tokencircuit/governance';
import { generateTrace } from '@tokencircuit/testing';
import { zodCloudEventToAgentEvent, zodFromKafkaRecord } from '../libs/contracts/src/spec-support/zod-decode.js';
import { redactEventByWalk } from '../libs/governance/src/redact/spec-support/redact-event-walk.js';
import { positiveIntOptions } from './support/cli-options.js';
import { machineLine } from './support/machine.js';
import { fmt } from './support/quantiles.js';
import { toMessage } from './support/trace-records.js';

const options = positiveIntOptions({ events: 10_000, rounds: 7, seed: 1 });
const say = (line: string) => process.stdout.write(`${line}\n`);

const events = generateTrace({ events: options.events, seed: options.seed });
const byType = new Map<string, number>();
for (const e of events) byType.set(e.type, (byType.get(e.type) ?? 0) + 1);
// As kafkajs hands them over: Buffer values and header values.
const records: KafkaRecord[] = events.map((e) => {
  const m = toMessage(e);
  const headers: Record<string, Buffer> = {};
  for (const [name, value] of Object.entries(m.headers ?? {})) headers[name] = Buffer.from(String(value));
  return { key: Buffer.from(String(m.key)), value: m.value as Buffer, headers };
});

interface Path {
  readonly name: string;
  readonly record: (r: KafkaRecord) => CloudEvent;
  readonly event: (ce: CloudEvent) => AgentEvent;
  readonly redact: (e: AgentEvent) => AgentEvent;
}
const before: Path = {
  name: 'before (zod)',
  record: zodFromKafkaRecord,
  event: zodCloudEventToAgentEvent,
  redact: redactEventByWalk,
};
const after: Path = { name: 'now', record: fromKafkaRecord, event: cloudEventToAgentEvent, redact: redactEvent };

const cpuMicros = (): number => {
  const u = process.cpuUsage();
  return u.user + u.system;
};

/** CPU µs per event of one pass over every record; `sink` keeps the results observable. */
let sink = 0;
function pass(path: Path, stage: 'all' | 'record' | 'event' | 'redact', inputs: readonly unknown[]): number {
  const start = cpuMicros();
  for (const input of inputs) {
    let out: unknown;
    if (stage === 'all') {
      const r = input as KafkaRecord;
      out = path.redact(path.event(path.record({ key: r.key, value: r.value, headers: { ...r.headers } })));
    } else if (stage === 'record') {
      const r = input as KafkaRecord;
      out = path.record({ key: r.key, value: r.value, headers: { ...r.headers } });
    } else if (stage === 'event') out = path.event(input as CloudEvent);
    else out = path.redact(input as AgentEvent);
    if (out !== null) sink++;
  }
  return (cpuMicros() - start) / inputs.length;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

say(`decode benchmark — ${machineLine()}`);
say(
  `  trace: ${fmt(events.length)} events (seed ${options.seed}; ${[...byType].map(([t, n]) => `${t} ${fmt(n)}`).join(', ')}), ${options.rounds} rounds, median CPU µs per event`,
);
const cloudEvents = records.map((r) => fromKafkaRecord({ ...r, headers: { ...r.headers } }));
const agentEvents = cloudEvents.map((ce) => cloudEventToAgentEvent(ce));
const stages = [
  ['all', records],
  ['record', records],
  ['event', cloudEvents],
  ['redact', agentEvents],
] as const;
const figures = new Map<string, number[]>();
for (let round = 0; round < options.rounds + 1; round++) {
  for (const [stage, inputs] of stages) {
    for (const path of round % 2 === 0 ? [before, after] : [after, before]) {
      const us = pass(path, stage, inputs);
      // Round 0 warms both paths up (JIT, caches) and is not counted.
      if (round > 0) figures.set(`${path.name}/${stage}`, [...(figures.get(`${path.name}/${stage}`) ?? []), us]);
    }
  }
}
const labels = {
  all: 'whole decode (record → redacted event)',
  record: '  fromKafkaRecord (record → CloudEvent)',
  event: '  cloudEventToAgentEvent (→ validated event)',
  redact: '  redactEvent',
};
say(`  ${'stage'.padEnd(46)} ${'before'.padStart(8)} ${'now'.padStart(8)}  now/before`);
for (const [stage] of stages) {
  const b = median(figures.get(`${before.name}/${stage}`)!);
  const a = median(figures.get(`${after.name}/${stage}`)!);
  say(`  ${labels[stage].padEnd(46)} ${fmt(b, 2).padStart(8)} ${fmt(a, 2).padStart(8)}  ${fmt(a / b, 2)}`);
}
if (sink === 0) throw new Error('nothing decoded');
