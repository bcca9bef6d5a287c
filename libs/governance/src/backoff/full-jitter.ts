import { hash53, hash53Of } from '../support/hash53.js';

/**
 * A replayable stand-in for Math.random(): a uniform fraction in [0, 1) from a 53-bit hash of
 * `seed`. Same seed, same fraction, on every machine and every replay; cheap enough for the hot
 * path, unlike a cryptographic digest, and nobody gains anything from predicting a backoff.
 */
export const jitterFraction = (seed: string): number => hash53(seed) / 2 ** 53;

/** jitterFraction(head + tail), without joining them (the head is a key id, read in place). */
export const jitterFractionOf = (head: string, tail: string): number => hash53Of(head, tail) / 2 ** 53;

/**
 * "Full jitter" from the AWS Architecture Blog's "Exponential Backoff And Jitter":
 * sleep = random_between(0, min(cap, base * 2 ** attempt)), both ends included.
 */
export function fullJitterMs(attempt: number, baseMs: number, capMs: number, fraction: number): number {
  const ceiling = Math.min(capMs, baseMs * 2 ** attempt);
  return Math.floor(fraction * (ceiling + 1));
}
