export interface WaitForOptions {
  /** Give up after this many milliseconds. */
  readonly maxWait?: number;
  /** Poll every this many milliseconds. */
  readonly interval?: number;
  /** Names the timeout so a failing test says what it was waiting for. */
  readonly name?: string;
}

/** Polls `predicate` until it returns a truthy value, never a bare sleep (kafkajs testHelpers style). */
export async function waitFor<T>(
  predicate: () => T | Promise<T>,
  { maxWait = 20_000, interval = 50, name = 'condition' }: WaitForOptions = {},
): Promise<NonNullable<T>> {
  const deadline = Date.now() + maxWait;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await predicate();
      if (value) return value as NonNullable<T>;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() > deadline) {
      const cause = lastError instanceof Error ? `: last error ${lastError.message}` : '';
      throw new Error(`Timed out after ${maxWait} ms waiting for ${name}${cause}`);
    }
    await new Promise((resolve) => setTimeout(resolve, interval));
  }
}
