import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DocCommand } from './console-block.js';

export interface CommandRun {
  readonly command: DocCommand;
  readonly output: string;
  /** null when the block timed out before this command finished. */
  readonly exitCode: number | null;
}

/**
 * A scratch copy of the repository a reader's shell would be in: every top-level entry linked, so
 * `examples/…` and `npx tokencircuit` resolve as in a clone, while files a block writes
 * (`> stopped.csv`, `candidate.json`) land in the scratch folder, not in the working tree.
 */
export function scratchClone(repo: string): { dir: string; binDir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'tc-doctest-'));
  for (const entry of readdirSync(repo)) {
    if (entry === '.git' || entry === '.data') continue;
    symlinkSync(join(repo, entry), join(dir, entry));
  }
  // `npx tokencircuit` in a clone runs bin/tokencircuit.mjs with node; doing that directly spares each of
  // the docs' commands npm's own start-up (seconds on a loaded machine). Any other npx is npm's.
  const binDir = mkdtempSync(join(tmpdir(), 'tc-doctest-bin-'));
  const npx = execFileSync('bash', ['-c', 'command -v npx'], { encoding: 'utf8' }).trim();
  writeFileSync(
    join(binDir, 'npx'),
    [
      '#!/usr/bin/env bash',
      `if [ "$1" = tokencircuit ]; then shift; exec node ${JSON.stringify(join(repo, 'bin/tokencircuit.mjs'))} "$@"; fi`,
      `exec ${JSON.stringify(npx)} "$@"`,
      '',
    ].join('\n'),
    { mode: 0o755 },
  );
  return {
    dir,
    binDir,
    remove: () => {
      rmSync(dir, { recursive: true, force: true });
      rmSync(binDir, { recursive: true, force: true });
    },
  };
}

/**
 * Runs a block's commands in order in ONE bash, as a reader pasting them would (a variable set by one
 * is seen by the next), each command's stdout and stderr captured together, as a terminal shows them.
 * stdin is empty unless the command redirects it.
 */
export function runBlock(
  commands: readonly DocCommand[],
  options: { cwd: string; env: Record<string, string | undefined>; timeoutMs: number },
): Promise<{ runs: CommandRun[]; timedOut: boolean }> {
  const outDir = mkdtempSync(join(tmpdir(), 'tc-doctest-out-'));
  const script = ['exec </dev/null']
    .concat(
      commands.map(
        (c, i) => `{\n${c.command}\n} >${join(outDir, `${i}.out`)} 2>&1\necho $? >${join(outDir, `${i}.rc`)}`,
      ),
    )
    .join('\n');
  writeFileSync(join(outDir, 'block.sh'), `${script}\n`);
  return new Promise((resolve, reject) => {
    const child = spawn('bash', [join(outDir, 'block.sh')], {
      cwd: options.cwd,
      env: options.env,
      stdio: 'ignore',
      detached: true,
    });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      // The block's own process group: its npx, node and anything they started.
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
    }, options.timeoutMs);
    child.on('error', reject);
    child.on('close', () => {
      clearTimeout(timer);
      const runs = commands.map((command, i) => ({
        command,
        output: readOr(join(outDir, `${i}.out`), ''),
        exitCode: readOr(join(outDir, `${i}.rc`), null, (text) => Number(text.trim())),
      }));
      rmSync(outDir, { recursive: true, force: true });
      resolve({ runs, timedOut });
    });
  });
}

function readOr<T>(path: string, fallback: T, parse: (text: string) => T = (t) => t as T): T {
  try {
    return parse(readFileSync(path, 'utf8'));
  } catch {
    return fallback;
  }
}
