// 36^5: splitting at it leaves two small integers, whose radix conversion V8 does fast.
const LOW = 60_466_176;

/**
 * `n.toString(36)` for a non-negative safe integer: V8 converts a large double to radix 36 in ~0.3 µs
 * (a third of an argument fingerprint) but a small integer in a tenth of that. Both steps are exact
 * (the remainder, and the division of a multiple of LOW).
 */
export function base36(n: number): string {
  if (!Number.isSafeInteger(n) || n < 0) return n.toString(36);
  const low = n % LOW;
  const high = (n - low) / LOW;
  return high === 0 ? low.toString(36) : high.toString(36) + low.toString(36).padStart(5, '0');
}
