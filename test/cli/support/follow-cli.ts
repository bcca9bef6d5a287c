import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { REPO } from './run-cli.js';

const BIN = fileURLToPath(new URL('../../../bin/tokencircuit.mjs', import.meta.url));

/** A long-running CLI process (tail) whose output the spec reads while it runs. */
export interface FollowingCli {
  readonly child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Sends SIGINT (Ctrl+C) and resolves with the exit code. */
  interrupt(): Promise<number | null>;
}

export function startCli(args: readonly string[]): FollowingCli {
  const child = spawn(process.execPath, [BIN, ...args], { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return {
    child,
    stdout: () => out,
    stderr: () => err,
    interrupt: () => {
      child.kill('SIGINT');
      return exited;
    },
  };
}
