import { headerValue } from '@tokencircuit/contracts';
import {
  concurrencyConflict,
  invariant,
  meaningOf,
  missingResource,
  permission,
  transient,
  validation,
  type ErrorMeaning,
  type Semantics,
} from './error-meaning.js';

/**
 * HTTP status semantics (RFC 9110 §15 unless noted). The effect column is the part that matters for
 * duplicates: a 4xx is a definite refusal, 408/425/429 are refusals before processing, while 500/502/504
 * say nothing about whether the origin acted (Stripe documents its 500s as "indeterminate").
 */
const STATUS: Readonly<Record<number, Semantics>> = {
  // 3xx reaching a caller as a failure: the target lives elsewhere, its identifier must be resolved.
  301: missingResource(),
  302: missingResource(),
  303: missingResource(),
  307: missingResource(),
  308: missingResource(),
  400: validation({ generic: true }),
  401: permission(),
  // 402: billing/entitlement; retrying cannot pay the bill (Stripe overrides it by name: card_error).
  402: permission(),
  403: permission(),
  404: missingResource(),
  405: validation(),
  406: validation(),
  407: permission(),
  // 408: the server did not receive a complete request in time (§15.5.9): nothing was processed.
  408: transient('rejected'),
  // 409: conflict with the current state of the target (§15.5.10). An agent cannot resolve it by
  // repetition, and on a retried write it is often the trace of the earlier attempt: fail closed.
  // Generic: the body says which conflict it is ("already exists", or a version conflict whose
  // documented remedy is re-read and retry, e.g. Kubernetes' "the object has been modified").
  409: invariant('rejected', { duplicateOnRetry: true, generic: true }),
  410: missingResource(),
  411: validation(),
  // 412: the request's own precondition (If-Match…) evaluated false (§13.1.1, §15.5.13): nothing was
  // applied, the representation changed since the caller read it; re-read and retry (RFC 9110 §13.1.1's
  // lost-update prevention). After an unknown attempt, the change may be our own (see classify()).
  412: concurrencyConflict(),
  413: validation(),
  414: validation(),
  415: validation(),
  416: validation(),
  417: validation(),
  // 421: sent to a server that will not answer for the target; retry on another connection (§15.5.20).
  421: transient('rejected'),
  // 422 (§15.5.21): the content was understood and could not be processed, without saying why. Generic like 400: the body
  // says which (GitHub's 422 "Reference already exists", Rails' and GitLab's "has already been taken").
  422: validation({ generic: true }),
  // 423 (RFC 4918 §11.3): the resource is locked; the lock is someone else's and will be released.
  423: transient('rejected'),
  // 425 (RFC 8470 §5.2): the server refused to process early data that could be replayed.
  425: transient('rejected'),
  426: validation(),
  // 428 (RFC 6585 §3): the request must be made conditional: the arguments must change.
  428: validation(),
  // 429 (RFC 6585 §4): a rate limiter refuses before processing (Stripe: it runs before idempotency).
  429: transient('rejected'),
  431: validation(),
  // 451 (RFC 7725): denied for legal reasons; no retry or argument change can lift it.
  451: permission(),
  // nginx 499: the client closed the connection; the upstream may still have acted.
  499: transient('indeterminate'),
  500: transient('indeterminate', { generic: true }),
  // 501: the server does not support the functionality required (§15.6.2): change the request.
  501: validation(),
  502: transient('indeterminate'),
  // 503 (§15.6.4) means "unable to handle", but a proxy also answers 503 after losing the upstream
  // mid-request; only Retry-After (see below) marks the origin's deliberate refusal.
  503: transient('indeterminate'),
  504: transient('indeterminate'),
  505: validation(),
  506: invariant(),
  // 507 (RFC 4918 §11.5): the server could not store what the method needed: nothing was stored.
  507: transient('rejected'),
  508: validation(),
  510: validation(),
  // 511 (RFC 6585 §6): a captive network wants the client to authenticate.
  511: permission(),
  // Cloudflare 52x: the edge tells whether the origin ever saw the request.
  520: transient('indeterminate'),
  521: transient('not_sent'),
  522: transient('not_sent'),
  523: transient('not_sent'),
  524: transient('indeterminate'),
  525: transient('not_sent'),
  526: invariant('not_sent'),
  // Anthropic 529 overloaded_error: refused at admission, before the model ran.
  529: transient('rejected'),
};

const header = headerValue;

/** RFC 6750 §3: the error attribute of a Bearer challenge refines 401/403. */
const bearerChallengeError = (headers: Readonly<Record<string, string>>): string | null => {
  const challenge = header(headers, 'www-authenticate');
  return challenge?.match(/\berror\s*=\s*"?([a-z_]+)"?/i)?.[1]?.toLowerCase() ?? null;
};

/** True when a rate-limit header says the caller's allowance is used up. */
export function rateLimitExhausted(headers: Readonly<Record<string, string>>): boolean {
  const remaining = header(headers, 'x-ratelimit-remaining') ?? header(headers, 'ratelimit-remaining');
  return remaining !== null && /^\s*0\s*$/.test(remaining);
}

const looksLikeGitHub = (headers: Readonly<Record<string, string>>, message: string | null): boolean =>
  Object.keys(headers).some(
    (k) => k.toLowerCase().startsWith('x-github-') || k.toLowerCase() === 'x-ratelimit-resource',
  ) || /docs\.github\.com|api rate limit exceeded|secondary rate limit/i.test(message ?? '');

/**
 * Rate-limit headers on a 403/429 outrank the status: GitHub documents a 403 with
 * x-ratelimit-remaining: 0 (primary) or with retry-after (secondary) as a rate limit, not a denial.
 */
export function rateLimitMeaning(
  status: number | null,
  headers: Readonly<Record<string, string>>,
  message: string | null,
): ErrorMeaning | null {
  if (status !== 403 && status !== 429) return null;
  const github = looksLikeGitHub(headers, message);
  if (rateLimitExhausted(headers)) {
    // A 403 carrying an exhausted allowance is GitHub's documented convention; a 429 is anyone's.
    return meaningOf(
      transient('rejected'),
      github || status === 403 ? 'github_rate_limit_exhausted' : 'rate_limit_exhausted',
    );
  }
  if (status === 403 && (header(headers, 'retry-after') !== null || /secondary rate limit/i.test(message ?? ''))) {
    return meaningOf(transient('rejected'), github ? 'github_secondary_rate_limit' : 'http_status:403+retry_after');
  }
  return null;
}

/** The meaning of an HTTP status, refined by the headers RFC 9110 and RFC 6750 give meaning to. */
export function httpStatusMeaning(status: number, headers: Readonly<Record<string, string>>): ErrorMeaning | null {
  const reason = `http_status:${status}`;
  const retryAfter = header(headers, 'retry-after') !== null;
  if (status === 503 && retryAfter) {
    // §10.2.3: with 503, Retry-After says how long the service expects to be unavailable: the origin
    // itself declined the request instead of an intermediary losing it.
    return meaningOf(transient('rejected'), reason, 'http:retry_after_refused_before_processing');
  }
  if (status === 413 && retryAfter) {
    // §15.5.14: Retry-After on a 413 marks the condition as temporary.
    return meaningOf(transient('rejected'), reason, 'http:retry_after_temporary_condition');
  }
  if (status === 401 || status === 403) {
    const challenge = bearerChallengeError(headers);
    if (challenge === 'invalid_request') return meaningOf(validation(), 'www_authenticate:invalid_request');
    if (challenge === 'invalid_token' || challenge === 'insufficient_scope') {
      return meaningOf(permission(), `www_authenticate:${challenge}`);
    }
  }
  const known = STATUS[status];
  if (known) return meaningOf(known, reason);
  // §15: a client treats an unrecognised status as the x00 of its class.
  if (status >= 400 && status < 500) return meaningOf(validation({ generic: true }), reason);
  if (status >= 500 && status < 600) return meaningOf(transient('indeterminate', { generic: true }), reason);
  return null;
}
