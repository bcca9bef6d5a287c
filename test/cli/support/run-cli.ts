import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const BIN = fileURLToPath(new URL('../../../bin/tokencircuit.mjs', import.meta.url));

export interface CliRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

export interface RunOptions {
  readonly stdin?: string;
  readonly env?: Record<string, string | undefined>;
  readonly timeoutMs?: number;
}

/**
 * Runs the real launcher as a user would (`node bin/tokencircuit.mjs …`, from the repository root,
 * stdout a pipe so no colours), feeding `stdin`. Rejects with a named timeout instead of hanging.
 */
export function runCli(args: readonly string[], options: RunOptions = {}): Promise<CliRun> {
  const { DATABASE_URL: _db, TOKENCIRCUIT_API_KEY: _key, TOKENCIRCUIT_URL: _url, ...inherited } = process.env;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: REPO,
      env: { ...inherited, ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timeoutMs = options.timeoutMs ?? 60_000;
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(
        new Error(
          `Timed out after ${timeoutMs} ms waiting for tokencircuit ${args.join(' ')}\nstdout: ${stdout}\nstderr: ${stderr}`,
        ),
      );
    }, timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.stdin.end(options.stdin ?? '');
  });
}

/** stdout of a --json run, one object per line. */
export const jsonLines = <T = Record<string, unknown>>(stdout: string): T[] =>
  stdout
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as T);

/** ANSI escape sequences: none may appear when stdout is not a terminal. */
// eslint-disable-next-line no-control-regex -- matching the ESC character is the point
export const ANSI = /\u001b\[/;
