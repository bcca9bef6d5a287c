/** What one attempt came to: delivered, worth another attempt (maybe not before `retryAfterMs`), or never. */
export type AttemptOutcome =
  | { readonly kind: 'sent'; readonly status: number }
  | {
      readonly kind: 'retriable';
      readonly status: number | null;
      readonly retryAfterMs: number | null;
      readonly reason: string;
    }
  | { readonly kind: 'permanent'; readonly status: number; readonly reason: string };

/**
 * HTTP status → outcome. 2xx delivered; 408, 425, 429 and 5xx are the receiver's passing trouble; any other
 * status says this request will never be taken (a bad routing key, a refused payload, a revoked webhook).
 */
export function outcomeOfResponse(
  status: number,
  retryAfterHeader: string | null,
  now: Date,
  bodySnippet = '',
): AttemptOutcome {
  const reason = `HTTP ${status}${bodySnippet ? `: ${bodySnippet}` : ''}`;
  if (status >= 200 && status < 300) return { kind: 'sent', status };
  if (status === 408 || status === 425 || status === 429 || status >= 500) {
    return { kind: 'retriable', status, retryAfterMs: parseRetryAfter(retryAfterHeader, now), reason };
  }
  return { kind: 'permanent', status, reason };
}

/** A request that never got a response (refused connection, timeout, reset): always worth another attempt. */
export function outcomeOfNetworkError(reason: string): AttemptOutcome {
  return { kind: 'retriable', status: null, retryAfterMs: null, reason };
}

/** Retry-After (RFC 9110 §10.2.3): delay-seconds or an HTTP-date; null when absent or unreadable. */
export function parseRetryAfter(value: string | null, now: Date): number | null {
  if (value === null) return null;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const at = Date.parse(trimmed);
  if (Number.isNaN(at)) return null;
  return Math.max(0, at - now.getTime());
}
