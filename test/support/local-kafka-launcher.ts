import { execFile } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** scripts/kafka/kafka.sh: the launcher CI and developers use, driven here by the int tests' global setup. */
export const LAUNCHER = fileURLToPath(new URL('../../scripts/kafka/kafka.sh', import.meta.url));

/** The result of one launcher invocation; `code` is its documented exit code. */
export interface LauncherRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs kafka.sh with `args`; never rejects on a non-zero exit, so callers can read its exit code. */
export function runLauncher(
  args: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
  timeoutMs = 15 * 60_000,
): Promise<LauncherRun> {
  return new Promise((resolve, reject) => {
    execFile('bash', [LAUNCHER, ...args], { env, timeout: timeoutMs, maxBuffer: 4 << 20 }, (error, stdout, stderr) => {
      if (error && typeof error.code !== 'number') {
        reject(new Error(`could not run ${LAUNCHER} ${args.join(' ')}: ${error.message}\n${stderr}`));
        return;
      }
      resolve({ code: error ? Number(error.code) : 0, stdout, stderr });
    });
  });
}

/** The last non-empty stdout line: where kafka.sh prints the bootstrap address. */
export function lastLine(text: string): string {
  return text.trim().split('\n').at(-1)?.trim() ?? '';
}

/** True when the launcher could run: JAVA_HOME/bin/java or a `java` on PATH (the launcher's own rule). */
export function javaAvailable(env: NodeJS.ProcessEnv = process.env): boolean {
  const candidates = [
    ...(env.JAVA_HOME ? [join(env.JAVA_HOME, 'bin', 'java')] : []),
    ...(env.PATH ?? '')
      .split(delimiter)
      .filter(Boolean)
      .map((dir) => join(dir, 'java')),
  ];
  return candidates.some((file) => {
    try {
      accessSync(file, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

/**
 * Starts (or joins) the local broker under a lease held by this process, on the data of its last run
 * (specs use random topics, so none needs `start --fresh`); `release` stops it only if
 * this lease started it and no other live test run still holds one (runs may overlap on one machine).
 */
export async function acquireLocalKafka(leaseId: string): Promise<{ brokers: string; release: () => Promise<void> }> {
  const env = { ...process.env, TC_KAFKA_LEASE_PID: String(process.pid) };
  const started = await runLauncher(['start', '--lease', leaseId], env);
  if (started.code !== 0) {
    throw new Error(`${LAUNCHER} start exited with ${started.code}:\n${started.stderr.trim()}`);
  }
  return {
    brokers: lastLine(started.stdout),
    release: async () => {
      const released = await runLauncher(['release', leaseId], env);
      if (released.code !== 0) {
        throw new Error(`${LAUNCHER} release exited with ${released.code}:\n${released.stderr.trim()}`);
      }
      console.info(`[int global setup] ${lastLine(released.stdout)}`);
    },
  };
}
