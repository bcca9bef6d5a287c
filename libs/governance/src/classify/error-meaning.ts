import type { FailureClass } from '@tokencircuit/contracts';

/**
 * What an error proves about the effect of the operation, independent of its class. Kept apart from
 * the class because the class says what to do next and this says whether a retry could duplicate:
 * - not_sent: the request never reached the server (connection refused, DNS failure);
 * - rejected: the server answered that it refused the operation before performing it (a definite reply);
 * - rolled_back: the server began, then guaranteed the work was undone (deadlock, serialization failure);
 * - indeterminate: the operation may or may not have been applied (timeout after send, reset, 5xx, gateway).
 */
export type EffectProof = 'not_sent' | 'rejected' | 'rolled_back' | 'indeterminate';

/** The documented meaning of one error code, before it is tied to a reason string. */
export interface Semantics {
  readonly failureClass: FailureClass;
  readonly effect: EffectProof;
  /**
   * A catch-all code (HTTP 400/500, an SQLSTATE class fallback, JSON-RPC -32603, a provider's
   * invalid_request_error): a specific pattern in the message may refine its class.
   */
  readonly generic: boolean;
  /** Seen on a retry, this error suggests an earlier attempt already applied (duplicate key, conflict). */
  readonly duplicateOnRetry: boolean;
  /**
   * An optimistic-concurrency conflict: the caller's own precondition or version check failed, and
   * the documented remedy is to re-read and retry (412, ETag mismatch, ConditionalCheckFailed).
   */
  readonly concurrency: boolean;
}

/** One interpreted error: its semantics plus the stable machine-readable reason that chose them. */
export interface ErrorMeaning extends Semantics {
  /** e.g. "http_status:403", "sqlstate:42501", "grpc:UNAVAILABLE", "provider:ThrottlingException". */
  readonly reason: string;
  /** An extra fact for the side-effect evidence, e.g. "http:retry_after_refused_before_processing". */
  readonly note: string | null;
}

interface Flags {
  readonly generic?: boolean;
  readonly duplicateOnRetry?: boolean;
  readonly concurrency?: boolean;
}

const semantics = (failureClass: FailureClass, effect: EffectProof, flags: Flags = {}): Semantics => ({
  failureClass,
  effect,
  generic: flags.generic ?? false,
  duplicateOnRetry: flags.duplicateOnRetry ?? false,
  concurrency: flags.concurrency ?? false,
});

export const transient = (effect: EffectProof, flags?: Flags): Semantics => semantics('transient', effect, flags);
export const validation = (flags?: Flags): Semantics => semantics('validation', 'rejected', flags);
export const permission = (flags?: Flags): Semantics => semantics('permission', 'rejected', flags);
export const missingResource = (flags?: Flags): Semantics => semantics('missing_resource', 'rejected', flags);
export const invariant = (effect: EffectProof = 'rejected', flags?: Flags): Semantics =>
  semantics('invariant_violation', effect, flags);
/**
 * A precondition or version conflict: nothing was applied, and re-reading then retrying is the
 * documented remedy, so it is transient — unless the earlier attempt may have moved the version itself.
 */
export const concurrencyConflict = (flags?: Flags): Semantics =>
  semantics('transient', 'rejected', { ...flags, concurrency: true });

// Fields listed rather than spread: the table entries come in several shapes, and a spread of
// mixed shapes falls off V8's fast object-clone path (it was the costliest line of classify()).
export const meaningOf = (s: Semantics, reason: string, note: string | null = null): ErrorMeaning => ({
  failureClass: s.failureClass,
  effect: s.effect,
  generic: s.generic,
  duplicateOnRetry: s.duplicateOnRetry,
  concurrency: s.concurrency,
  reason,
  note,
});
