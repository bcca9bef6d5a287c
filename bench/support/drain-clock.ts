/** When a consumer started, when the first records were done, and when all of them were. */
export interface Drain {
  readonly total: number;
  /** Seconds from start (connect, group join, first fetch included) to the last record. */
  readonly wallSeconds: number;
  /** Records done at the first observation of progress; excluded from the steady-state rate. */
  readonly firstProgress: number;
  /** Seconds from the first observed progress to the last record. */
  readonly steadySeconds: number;
}

export const wallRate = (d: Drain): number => d.total / d.wallSeconds;
/** Records per second once consuming: startup (connect, join, first fetch) left out. */
export const steadyRate = (d: Drain): number => (d.total - d.firstProgress) / d.steadySeconds;

/**
 * Polls `progress()` until it reaches `total` (or `maxWaitMs` passes: a named error, never a hang).
 * The same clock for the bare consumer and the projector, so their figures compare.
 */
export async function clockDrain(
  name: string,
  startedAt: number,
  total: number,
  progress: () => number | Promise<number>,
  { intervalMs = 25, maxWaitMs = 30 * 60_000, stallMs = 60_000 } = {},
): Promise<Drain> {
  let first: { at: number; done: number } | null = null;
  let last = { at: startedAt, done: 0 };
  for (;;) {
    const done = await progress();
    const now = performance.now();
    if (done > last.done) last = { at: now, done };
    // A consumer that stopped (crashed, left its group) never finishes: say so instead of waiting it out.
    if (now - last.at > stallMs) {
      throw new Error(
        `no progress for ${(stallMs / 1000).toFixed(0)} s waiting for ${name}: ${done} of ${total} records done`,
      );
    }
    if (done > 0 && first === null) first = { at: now, done };
    if (done >= total) {
      const f = first ?? { at: now, done };
      const steady = now - f.at;
      return {
        total,
        wallSeconds: (now - startedAt) / 1000,
        firstProgress: steady > 0 ? f.done : 0,
        steadySeconds: (steady > 0 ? steady : now - startedAt) / 1000,
      };
    }
    if (now - startedAt > maxWaitMs) {
      throw new Error(
        `timed out after ${(maxWaitMs / 1000).toFixed(0)} s waiting for ${name}: ${done} of ${total} records done`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
