/**
 * What a transport error code or name proves about a call's dispatch, read by both sources of outcome
 * events: the SDK (a thrown error's code, name and syscall) and the OTLP receiver (a span's error.type and
 * exception.type). Node's errno codes, undici's UND_ERR_* codes and the error names of common clients.
 */

/** Codes of the connect phase: nothing of the request left the client. */
export const NOT_SENT_CODES: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EAI_NONAME',
  'EAI_FAIL',
  'EADDRNOTAVAIL',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_CLOSED',
]);

/** Routing failures: they prove "not sent" only when Node says they happened in connect(). */
export const NOT_SENT_ON_CONNECT_CODES: ReadonlySet<string> = new Set([
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENETDOWN',
  'EHOSTDOWN',
  'ETIMEDOUT',
]);

/** The request was written and then the wait for the answer ended. */
export const SENT_NO_REPLY_CODES: ReadonlySet<string> = new Set([
  'UND_ERR_HEADERS_TIMEOUT',
  'ESOCKETTIMEDOUT',
  'ECONNRESET',
  'EPIPE',
  'UND_ERR_SOCKET',
]);

/** The client gave up waiting (timeout, abort, cancellation). */
export const TIMEOUT_CODES: ReadonlySet<string> = new Set([
  'ETIMEDOUT',
  'ESOCKETTIMEDOUT',
  'ECONNABORTED',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_ABORTED',
  'ERR_CANCELED',
  'ABORT_ERR',
  'ECANCELED',
]);

/** Error names (class names) of a timeout or an abort. */
export const TIMEOUT_NAMES: ReadonlySet<string> = new Set([
  'TimeoutError',
  'AbortError',
  'APIConnectionTimeoutError',
  'HeadersTimeoutError',
  'BodyTimeoutError',
  'RequestTimeoutError',
]);

/** The connection dropped after the request may have left. */
export const LOST_REPLY_CODES: ReadonlySet<string> = new Set([
  'ECONNRESET',
  'EPIPE',
  'UND_ERR_SOCKET',
  'ERR_STREAM_PREMATURE_CLOSE',
]);

/** MCP's client-side JSON-RPC codes (ErrorCode.RequestTimeout, ErrorCode.ConnectionClosed): no server answered. */
export const JSONRPC_REQUEST_TIMEOUT = -32001;
export const JSONRPC_CONNECTION_CLOSED = -32000;

/**
 * gRPC statuses that are the client's own verdict (a deadline, a cancellation) or usually "could not reach"
 * (UNAVAILABLE): no server answered. Compared with normaliseGrpcCode's names.
 */
export const GRPC_CLIENT_SIDE: ReadonlySet<string> = new Set(['DEADLINE_EXCEEDED', 'CANCELLED', 'UNAVAILABLE']);
