export interface RetryPolicy {
  /** Attempts in all, the first included; after the last a delivery is dead-lettered. */
  readonly maxAttempts: number;
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
  /** The longest Retry-After honoured: a receiver asking for more is retried after this. */
  readonly maxRetryAfterMs: number;
}

/**
 * Delay before attempt `attempt + 1` after `attempt` failed: exponential backoff with full jitter
 * (random in [0, min(max, base·2^(attempt-1))]), never sooner than the receiver's Retry-After.
 * `random` is a number in [0, 1): injected so the core stays deterministic under test.
 */
export function retryDelayMs(
  attempt: number,
  retryAfterMs: number | null,
  policy: RetryPolicy,
  random: number,
): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, attempt - 1));
  const jittered = Math.floor(random * ceiling);
  if (retryAfterMs === null) return jittered;
  return Math.max(jittered, Math.min(retryAfterMs, policy.maxRetryAfterMs));
}
