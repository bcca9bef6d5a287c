import {
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
 * POSIX/libuv errno codes as Node reports them (nodejs.org/api/errors.html "Common system errors",
 * man 3 errno, getaddrinfo(3)), undici's UND_ERR_* codes and the Node TLS/ERR_* codes agents meet.
 */
const CODES: Readonly<Record<string, Semantics>> = {
  // Refused or unresolvable before any byte of the request left: nothing can have happened.
  ECONNREFUSED: transient('not_sent'),
  // EAI_NONAME/ENOTFOUND: an authoritative "no such host", unlike the temporary EAI_AGAIN. A
  // mistyped or invented host name is resolved by discovery, not by waiting.
  ENOTFOUND: { ...missingResource(), effect: 'not_sent' },
  EAI_NONAME: { ...missingResource(), effect: 'not_sent' },
  EAI_AGAIN: transient('not_sent'),
  EAI_FAIL: transient('not_sent'),
  // Connection dropped or timed out with the request possibly delivered.
  ECONNRESET: transient('indeterminate'),
  EPIPE: transient('indeterminate'),
  ETIMEDOUT: transient('indeterminate'),
  ESOCKETTIMEDOUT: transient('indeterminate'),
  ECONNABORTED: transient('indeterminate'), // also axios's code for its own timeout
  EPROTO: transient('indeterminate'),
  EINTR: transient('indeterminate'),
  ECANCELED: transient('indeterminate'),
  // Routing failures: the connection could not be used; with a connect syscall they prove not-sent.
  EHOSTUNREACH: transient('indeterminate'),
  ENETUNREACH: transient('indeterminate'),
  ENETDOWN: transient('indeterminate'),
  EHOSTDOWN: transient('indeterminate'),
  EADDRNOTAVAIL: transient('not_sent'),
  // Local resource exhaustion: the operation could not start (no descriptor, no memory).
  EMFILE: transient('not_sent'),
  ENFILE: transient('not_sent'),
  ENOMEM: transient('not_sent'),
  EAGAIN: transient('rejected'),
  EWOULDBLOCK: transient('rejected'),
  EBUSY: transient('rejected'),
  ETXTBSY: transient('rejected'),
  // Disk full mid-write leaves a partial file: indeterminate (PostgreSQL's 53100 is the same class).
  ENOSPC: transient('indeterminate'),
  EDQUOT: transient('indeterminate'),
  EACCES: permission(),
  EPERM: permission(),
  EROFS: permission(),
  ENOENT: missingResource(),
  ENOTDIR: missingResource(),
  EEXIST: invariant('rejected', { duplicateOnRetry: true }),
  // rmdir of a non-empty directory: gRPC's own example of FAILED_PRECONDITION.
  ENOTEMPTY: invariant(),
  EISDIR: validation(),
  EINVAL: validation(),
  ENAMETOOLONG: validation(),
  ELOOP: validation(),
  EXDEV: validation(),
  EFBIG: validation(),
  EMSGSIZE: validation(),
  ENOTSUP: validation(),
  EOPNOTSUPP: validation(),
  ENOSYS: validation(),
  EBADF: validation(),
  // undici (undici.nodejs.org, "Errors").
  UND_ERR_CONNECT_TIMEOUT: transient('not_sent'),
  UND_ERR_HEADERS_TIMEOUT: transient('indeterminate'),
  UND_ERR_BODY_TIMEOUT: transient('indeterminate'),
  UND_ERR_SOCKET: transient('indeterminate'),
  UND_ERR_ABORTED: transient('indeterminate'),
  UND_ERR_DESTROYED: transient('indeterminate'),
  UND_ERR_CLOSED: transient('not_sent'), // dispatch on a client that was already closed
  UND_ERR_RES_CONTENT_LENGTH_MISMATCH: transient('indeterminate'),
  UND_ERR_REQ_CONTENT_LENGTH_MISMATCH: validation(),
  UND_ERR_INVALID_ARG: validation(),
  UND_ERR_NOT_SUPPORTED: validation(),
  // The reply was too big to keep: the server finished whatever it did, so a write's effect is unknown.
  UND_ERR_RES_EXCEEDED_MAX_SIZE: { ...validation(), effect: 'indeterminate' },
  // axios (axios-http.com "Handling Errors"): a network failure or a cancel says nothing of the effect.
  ERR_NETWORK: transient('indeterminate'),
  ERR_CANCELED: transient('indeterminate'),
  ERR_FR_TOO_MANY_REDIRECTS: validation(),
  // Node.
  ERR_SOCKET_CONNECTION_TIMEOUT: transient('not_sent'),
  ERR_STREAM_PREMATURE_CLOSE: transient('indeterminate'),
  ERR_HTTP2_STREAM_ERROR: transient('indeterminate'),
  ERR_HTTP2_GOAWAY_SESSION: transient('indeterminate'),
  ERR_INVALID_URL: validation(),
  ERR_INVALID_ARG_TYPE: validation(),
  ERR_INVALID_ARG_VALUE: validation(),
  ERR_INVALID_HTTP_TOKEN: validation(),
  // A certificate the client cannot trust: the handshake failed before the request, and a retry
  // would only repeat it. Trust failures are a security invariant, not a transient condition.
  CERT_HAS_EXPIRED: invariant('not_sent'),
  DEPTH_ZERO_SELF_SIGNED_CERT: invariant('not_sent'),
  SELF_SIGNED_CERT_IN_CHAIN: invariant('not_sent'),
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: invariant('not_sent'),
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: invariant('not_sent'),
  ERR_TLS_CERT_ALTNAME_INVALID: invariant('not_sent'),
};

/** Connection-establishment syscalls: an error raised there proves the request was never written. */
const CONNECT_SYSCALLS = /^(?:connect|getaddrinfo|getnameinfo|query[a-z]*|lookup)$/i;

export const isKnownErrno = (code: string): boolean => Object.hasOwn(CODES, code);

/**
 * The meaning of an errno, given the syscall that raised it when known (Node's "connect ECONNREFUSED
 * 10.0.0.1:443" message format names it): a timeout or unreachable host in connect() happened before
 * the request was written.
 */
export function errnoMeaning(code: string, syscall: string | null = null): ErrorMeaning | null {
  const known = CODES[code];
  if (!known) return null;
  const reason = `errno:${code}`;
  if (syscall !== null && CONNECT_SYSCALLS.test(syscall) && known.effect === 'indeterminate') {
    return meaningOf({ ...known, effect: 'not_sent' }, reason, `syscall:${syscall.toLowerCase()}`);
  }
  return meaningOf(known, reason);
}
