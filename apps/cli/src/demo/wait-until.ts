import { CliError, EXIT } from '../io/exit-codes.js';
import { sleep } from '../tail/sleep.js';

/**
 * Polls `probe` until it returns a value, or fails with a named timeout (exit 1: what was awaited did
 * not happen). Never a bare sleep: the wait ends as soon as the condition holds.
 */
export async function waitUntil<T>(
  probe: () => Promise<T | null>,
  options: {
    readonly name: string;
    readonly timeoutMs: number;
    readonly intervalMs?: number;
    readonly signal: AbortSignal;
    readonly detail?: () => string;
  },
): Promise<T> {
  const deadline = Date.now() + options.timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== null) return value;
    if (options.signal.aborted) throw new CliError(`interrupted while waiting for ${options.name}`, EXIT.interrupted);
    if (Date.now() > deadline) {
      const detail = options.detail ? `: ${options.detail()}` : '';
      throw new CliError(`timed out after ${options.timeoutMs} ms waiting for ${options.name}${detail}`, EXIT.findings);
    }
    await sleep(options.intervalMs ?? 200, options.signal);
  }
}
