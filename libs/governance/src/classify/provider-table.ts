import type { Semantics } from './error-meaning.js';

/** One provider's documented error names grouped by meaning; `source` says where they are documented. */
export interface ProviderGroup {
  readonly provider: string;
  /** Other names outcomes give the same provider ("k8s" for "kubernetes", "opensearch" for "elasticsearch"). */
  readonly aliases?: readonly string[];
  readonly source: string;
  readonly entries: ReadonlyArray<readonly [Semantics, readonly string[]]>;
}

/**
 * Lookup key for an error name: lower-case letters and digits only, so "rate_limit_error",
 * "RateLimitError" (the SDK exception class) and "rate-limit-error" meet.
 */
export const nameKey = (name: string): string => name.toLowerCase().replace(/[^a-z0-9]/g, '');
