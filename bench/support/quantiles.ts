/** Nearest-rank quantile of an ascending array (q in [0, 1]). */
export function quantile(sorted: ArrayLike<number>, q: number): number {
  if (sorted.length === 0) throw new RangeError('quantile of an empty sample');
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

/** "p50 1.2 ms  p90 …  max …" of latencies in milliseconds. */
export function latencyLine(latenciesMs: readonly number[]): string {
  const sorted = Float64Array.from(latenciesMs).sort();
  const at = (q: number) => `${quantile(sorted, q).toFixed(1)} ms`;
  return `p50 ${at(0.5)}  p90 ${at(0.9)}  p99 ${at(0.99)}  p99.9 ${at(0.999)}  max ${sorted[sorted.length - 1]!.toFixed(1)} ms`;
}

export const fmt = (n: number, digits = 0): string =>
  n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
