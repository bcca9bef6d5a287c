import { createHash } from 'node:crypto';

/**
 * A replayable stand-in for Math.random(): a uniform fraction in [0, 1) from a hash of `seed`.
 * Same seed, same fraction, on every machine and every replay.
 */
export function jitterFraction(seed: string): number {
  const digest = createHash('sha256').update(seed, 'utf8').digest();
  return digest.readUIntBE(0, 6) / 2 ** 48;
}

/**
 * "Full jitter" from the AWS Architecture Blog's "Exponential Backoff And Jitter":
 * sleep = random_between(0, min(cap, base * 2 ** attempt)), both ends included.
 */
export function fullJitterMs(attempt: number, baseMs: number, capMs: number, fraction: number): number {
  const ceiling = Math.min(capMs, baseMs * 2 ** attempt);
  return Math.floor(fraction * (ceiling + 1));
}
