/**
 * A sink's circuit breaker, as data: closed (counting consecutive failures), open (no attempts until
 * `until`), half-open (one trial attempt in flight). While open, the sink's deliveries wait without
 * spending attempts, so an outage of hours does not dead-letter everything queued behind it.
 */
export type BreakerState =
  | { readonly status: 'closed'; readonly failures: number }
  | { readonly status: 'open'; readonly until: number; readonly failures: number }
  | { readonly status: 'half_open'; readonly failures: number };

export interface BreakerPolicy {
  /** Consecutive retriable failures that open the breaker. */
  readonly failureThreshold: number;
  readonly cooldownMs: number;
}

export const CLOSED: BreakerState = { status: 'closed', failures: 0 };

/** How many deliveries of the sink may be attempted now: all (closed), one trial (cooldown over), or none. */
export function breakerAllowance(state: BreakerState, now: number): 'all' | 'one' | 'none' {
  switch (state.status) {
    case 'closed':
      return 'all';
    case 'open':
      return now >= state.until ? 'one' : 'none';
    case 'half_open':
      return 'none';
    default:
      return exhaustive(state);
  }
}

/** The trial attempt of an open breaker whose cooldown is over has started. */
export function breakerTrial(state: BreakerState): BreakerState {
  return state.status === 'open' ? { status: 'half_open', failures: state.failures } : state;
}

/** A delivered attempt closes the breaker. */
export function breakerSuccess(): BreakerState {
  return CLOSED;
}

/** A retriable failure: counts towards opening; a failed trial opens again for a full cooldown. */
export function breakerFailure(state: BreakerState, now: number, policy: BreakerPolicy): BreakerState {
  const failures = state.failures + 1;
  if (state.status === 'half_open' || failures >= policy.failureThreshold) {
    return { status: 'open', until: now + policy.cooldownMs, failures };
  }
  return { status: 'closed', failures };
}

function exhaustive(value: never): never {
  throw new TypeError(`unexpected breaker state ${JSON.stringify(value)}`);
}
