/**
 * CLI start-up: wall time of `node bin/tokencircuit.mjs <args>` until it exits, for `--version` and for every
 * command's `--help` (the command's modules loaded, nothing contacted), plus two offline commands run for real.
 * With KAFKA_BROKERS and DATABASE_URL set, `checkpoints show` runs for real against them too.
 * Each case runs --runs times (default 7, interleaved) and prints the median and the range.
 *   npm run bench:cli [-- --runs 7] [--repo <clone>] [--before <clone>] [--quick]
 * --repo measures another checkout; --before runs each case in a second checkout too (e.g. a worktree of an
 * older commit), alternating with this one, so both columns share the machine's load; --quick keeps six cases.
 * Not a test: nothing here asserts a time.
 */
import { spawnSync } from 'node:child_process';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { machineLine } from './support/machine.js';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '7' },
    repo: { type: 'string' },
    before: { type: 'string' },
    quick: { type: 'boolean', default: false },
  },
  strict: true,
});
const runs = Number(values.runs);
if (!Number.isInteger(runs) || runs <= 0) throw new Error(`--runs needs a positive integer, got "${values.runs}"`);
const repo = values.repo ?? fileURLToPath(new URL('..', import.meta.url));
const say = (line: string) => process.stdout.write(`${line}\n`);

const COMMANDS = ['classify', 'simulate', 'demo', 'tail', 'state', 'audit', 'verify', 'anchors', 'replay', 'whatif'];
const MORE = ['checkpoints', 'dashboard', 'ack', 'resolve', 'policy', 'topics'];
const QUICK = new Set([
  '--version',
  'policy check examples/policy.json',
  'simulate examples/traces/rfc-1-permission.jsonl',
]);
const allCases: { readonly name: string; readonly args: readonly string[] }[] = [
  { name: '--version', args: ['--version'] },
  { name: 'policy check examples/policy.json', args: ['policy', 'check', 'examples/policy.json'] },
  {
    name: 'simulate examples/traces/rfc-1-permission.jsonl',
    args: ['simulate', 'examples/traces/rfc-1-permission.jsonl'],
  },
  ...[...COMMANDS, ...MORE].map((command) => ({ name: `${command} --help`, args: [command, '--help'] })),
  // Against the local stack when both are set: a command that reads Postgres and the broker, run for real.
  ...(process.env.KAFKA_BROKERS && process.env.DATABASE_URL
    ? [{ name: 'checkpoints show (local Kafka + Postgres)', args: ['checkpoints', 'show'] }]
    : []),
];
const cases = values.quick
  ? allCases.filter((c) => QUICK.has(c.name) || ['demo --help', 'replay --help', 'checkpoints --help'].includes(c.name))
  : allCases;
const checkouts = [repo, ...(values.before ? [values.before] : [])];

/** Seconds from spawn to exit; the exit code is kept so a broken case reads as broken, not as fast. */
function once(checkout: string, args: readonly string[]): { seconds: number; status: number | null } {
  const started = performance.now();
  const bin = join(checkout, 'bin', 'tokencircuit.mjs');
  const { status } = spawnSync(process.execPath, [bin, ...args], { cwd: checkout, stdio: 'ignore' });
  return { seconds: (performance.now() - started) / 1000, status };
}

say(`CLI start-up — ${machineLine()}`);
say(`${checkouts.join(' | ')}: ${runs} runs per case (interleaved), median [min–max] seconds`);
for (const checkout of checkouts) once(checkout, ['--version']); // a stale dist/ is compiled first: in no figure
const times = new Map(checkouts.flatMap((k) => cases.map((c) => [`${k} ${c.name}`, [] as number[]])));
const failures = new Map<string, number | null>();
for (let run = 0; run < runs; run += 1) {
  for (const c of cases) {
    for (const checkout of checkouts) {
      const { seconds, status } = once(checkout, c.args);
      times.get(`${checkout} ${c.name}`)!.push(seconds);
      if (status !== 0) failures.set(`${checkout} ${c.name}`, status);
    }
  }
}
const figure = (key: string) => {
  const sorted = [...times.get(key)!].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)]!;
  const failed = failures.has(key) ? ` (exit ${failures.get(key)})` : '';
  return `${median.toFixed(2)} [${sorted[0]!.toFixed(2)}–${sorted.at(-1)!.toFixed(2)}]${failed}`.padEnd(30);
};
for (const c of cases) say(`${c.name.padEnd(52)} ${checkouts.map((k) => figure(`${k} ${c.name}`)).join(' ')}`);
say(`after: ${machineLine()}`);
