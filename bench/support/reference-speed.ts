/**
 * The machine's speed at the moment, as nanoseconds per step of a fixed single-threaded workload of the kind the core
 * does (a Map keyed by strings, small objects replaced at every step, a string comparison), the fastest of five
 * passes after two warm-up passes. The VM these benchmarks run on has run the same code 1.5–2 × slower on some days than on others; printed
 * beside every result, this figure tells a slower day from a slower change (docs/benchmarks.md, "Reading a figure").
 */
export function referenceNsPerStep(): number {
  const keys = Array.from({ length: 4_096 }, (_, i) =>
    ['tenant-', String(i % 20), '|run-', String(i), '|tool-', String(i % 8)].join(''),
  );
  const rounds = 50;
  let best = Infinity;
  let sink = 0;
  // Two warm-up passes first: the figure is the optimised code's, as the benchmarks' timed rounds are.
  for (let pass = 0; pass < 7; pass += 1) {
    const started = process.hrtime.bigint();
    const held = new Map<string, { readonly n: number; readonly key: string }>();
    for (let round = 0; round < rounds; round += 1) {
      for (let i = 0; i < keys.length; i += 1) {
        const key = keys[i]!;
        const before = held.get(key);
        if (before !== undefined && before.key === key) sink += before.n;
        held.set(key, { n: (before?.n ?? 0) + 1, key });
      }
    }
    if (pass >= 2) best = Math.min(best, Number(process.hrtime.bigint() - started) / (rounds * keys.length));
  }
  // Read, so the work cannot be left out.
  if (sink < 0) throw new Error('unreachable');
  return best;
}

/** "reference 23.4 ns/step": the figure above, for a benchmark's header line. */
export const referenceLine = (): string => `reference ${referenceNsPerStep().toFixed(1)} ns/step`;
