/** A quota: a sustained rate and the burst a quiet tenant may spend at once. */
export interface Quota {
  /** Tokens added per second (requests, or events for ingest). */
  readonly perSecond: number;
  /** The bucket's size: what a tenant that was quiet long enough may spend at once. */
  readonly burst: number;
}

export type Take = { readonly allowed: true } | { readonly allowed: false; readonly retryAfterMs: number };

interface Bucket {
  tokens: number;
  at: number;
}

/**
 * Token buckets, one per key (a tenant), pure: time comes in as epoch milliseconds, so the same calls give
 * the same answers. A bucket starts full, refills at `perSecond` up to `burst`, and a take that does not fit
 * takes nothing and says when it would. A clock that steps back refills nothing (never a negative refill).
 * Keys are the configured tenants, so the map is bounded by the key ring, not by traffic.
 */
export class TokenBuckets {
  private readonly buckets = new Map<string, Bucket>();

  constructor(readonly quota: Quota) {
    if (!(quota.perSecond > 0) || !(quota.burst >= 1))
      throw new RangeError('a quota needs perSecond > 0 and burst >= 1');
  }

  take(key: string, cost: number, nowMs: number): Take {
    const bucket = this.refilled(key, nowMs);
    if (cost <= bucket.tokens) {
      bucket.tokens -= cost;
      return { allowed: true };
    }
    // A cost above the burst can never fit: it waits as long as a full bucket takes to fill, then fails again
    // (the ingest settings refuse a burst below the largest batch, so no valid request is in that case).
    const { perSecond, burst } = this.quota;
    const missing = Math.min(cost, burst) - bucket.tokens;
    return { allowed: false, retryAfterMs: Math.max(1, Math.ceil((missing * 1000) / perSecond)) };
  }

  /**
   * Charges a cost known only after the work was done (what a read turned out to touch): taken whatever is left,
   * so the bucket may go below zero and the key's next requests wait until the debt is refilled.
   */
  charge(key: string, cost: number, nowMs: number): void {
    this.refilled(key, nowMs).tokens -= cost;
  }

  private refilled(key: string, nowMs: number): Bucket {
    const { perSecond, burst } = this.quota;
    let bucket = this.buckets.get(key);
    if (bucket === undefined) {
      bucket = { tokens: burst, at: nowMs };
      this.buckets.set(key, bucket);
    }
    const elapsed = Math.max(0, nowMs - bucket.at);
    bucket.tokens = Math.min(burst, bucket.tokens + (elapsed * perSecond) / 1000);
    bucket.at = Math.max(bucket.at, nowMs);
    return bucket;
  }
}
