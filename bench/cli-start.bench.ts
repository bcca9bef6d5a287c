/**
 * CLI start-up: wall time of `node bin/tokencircuit.mjs <args>` until it exits, for `--version` and for every
 * command's `--help` (the command's modules loaded, nothing contacted), plus two offline commands run for real.
 * Each case runs --runs times (default 7, interleaved) and prints the median and the range.
 *   npm run bench:cli [-- --runs 7] [--repo <clone>]
 * --repo measures another checkout (e.g. a worktree of an older commit) with the same cases, for before/after.
 * Not a test: nothing here asserts a time.
 */
import { spawnSync } from 'node:child_process';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { machineLine } from './support/machine.js';

const { values } = parseArgs({
  options: { runs: { type: 'string', default: '7' }, repo: { type: 'string' } },
  strict: true,
});
const runs = Number(values.runs);
if (!Number.isInteger(runs) || runs <= 0) throw new Error(`--runs needs a positive integer, got "${values.runs}"`);
const repo = values.repo ?? fileURLToPath(new URL('..', import.meta.url));
const bin = join(repo, 'bin', 'tokencircuit.mjs');
const say = (line: string) => process.stdout.write(`${line}\n`);

const COMMANDS = ['classify', 'simulate', 'demo', 'tail', 'state', 'audit', 'verify', 'anchors', 'replay', 'whatif'];
const MORE = ['checkpoints', 'dashboard', 'ack', 'resolve', 'policy', 'topics'];
const cases: { readonly name: string; readonly args: readonly string[] }[] = [
  { name: '--version', args: ['--version'] },
  { name: 'policy check examples/policy.json', args: ['policy', 'check', 'examples/policy.json'] },
  {
    name: 'simulate examples/traces/rfc-1-permission.jsonl',
    args: ['simulate', 'examples/traces/rfc-1-permission.jsonl'],
  },
  ...[...COMMANDS, ...MORE].map((command) => ({ name: `${command} --help`, args: [command, '--help'] })),
];

/** Seconds from spawn to exit; the exit code is kept so a broken case reads as broken, not as fast. */
function once(args: readonly string[]): { seconds: number; status: number | null } {
  const started = performance.now();
  const { status } = spawnSync(process.execPath, [bin, ...args], { cwd: repo, stdio: 'ignore' });
  return { seconds: (performance.now() - started) / 1000, status };
}

say(`CLI start-up — ${machineLine()}`);
say(`repository ${repo}, ${runs} runs per case (interleaved), median [min–max] seconds`);
once(['--version']); // a stale dist/ is compiled by the first start: not part of any figure
const times = new Map(cases.map((c) => [c.name, [] as number[]]));
const failures = new Map<string, number | null>();
for (let run = 0; run < runs; run += 1) {
  for (const c of cases) {
    const { seconds, status } = once(c.args);
    times.get(c.name)!.push(seconds);
    if (status !== 0) failures.set(c.name, status);
  }
}
for (const c of cases) {
  const sorted = [...times.get(c.name)!].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)]!;
  const failed = failures.has(c.name) ? `  (exit ${failures.get(c.name)})` : '';
  say(`${c.name.padEnd(52)} ${median.toFixed(2)}  [${sorted[0]!.toFixed(2)}–${sorted.at(-1)!.toFixed(2)}]${failed}`);
}
say(`after: ${machineLine()}`);
