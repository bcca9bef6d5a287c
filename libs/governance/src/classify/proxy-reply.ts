import { meaningOf, transient, type ErrorMeaning } from './error-meaning.js';

/**
 * Envoy's own local replies, which say whether the request ever reached the upstream (Envoy access-log response
 * flags; "why is Envoy sending 503s"): a 503 "upstream connect error or disconnect/reset before headers. reset
 * reason: <reason>" names the reset (Http::Utility::resetReasonToString). "connection failure" and "connection
 * timeout" (UF: the upstream connection was never established) and "overflow" (UO: a circuit breaker refused it)
 * mean the request was never forwarded; Envoy's own retry policy retries connect-failure for any method. "remote
 * refused stream reset" is the upstream's HTTP/2 REFUSED_STREAM (RFC 9113 §8.7: not processed). Any other reason
 * ("connection termination", "remote reset", "protocol error"…) reset the stream after it may have been forwarded,
 * so a 503's indeterminate reading stands. "no healthy upstream" (UH): no host to forward to.
 */
const ENVOY_RESET =
  /\bupstream connect error or disconnect\/reset before headers\.[^\n]{0,40}?\breset reason: ([a-z ]{1,40})/;
const ENVOY_NO_HEALTHY_UPSTREAM = /^\s*no healthy upstream\s*$/;

export function proxyReplyMeaning(httpStatus: number | null, text: string | null): ErrorMeaning | null {
  if (httpStatus !== 503 || text === null || text.length > 2000) return null;
  if (ENVOY_NO_HEALTHY_UPSTREAM.test(text)) return meaningOf(transient('not_sent'), 'proxy:envoy_no_healthy_upstream');
  const reset = ENVOY_RESET.exec(text)?.[1]?.trim();
  if (reset === undefined) return null;
  if (reset.startsWith('connection failure') || reset.startsWith('connection timeout'))
    return meaningOf(transient('not_sent'), 'proxy:envoy_upstream_connection_failure');
  if (reset.startsWith('overflow')) return meaningOf(transient('not_sent'), 'proxy:envoy_upstream_overflow');
  if (reset.startsWith('remote refused stream reset'))
    return meaningOf(transient('rejected'), 'proxy:envoy_upstream_refused_stream');
  return null;
}
