import { field, objectField, stringField } from './error-layers.js';
import { headersOf, httpStatusOf } from './http-facts.js';

/** Everything the layers of one thrown error say, before it is cut down to a RawError. */
export interface ErrorEvidence {
  readonly httpStatus: number | null;
  readonly headers: Record<string, string>;
  readonly sqlState: string | null;
  readonly grpcCode: number | string | null;
  readonly jsonRpcCode: number | null;
  /** Errno-like codes of every layer, outermost first (ECONNREFUSED, UND_ERR_HEADERS_TIMEOUT, ERR_…). */
  readonly errnos: readonly string[];
  /** The first errno-like code's syscall, when Node reported one (connect, getaddrinfo, write…). */
  readonly syscall: string | null;
  /** Provider codes that are names, not errnos (insufficient_quota, ER_DUP_ENTRY). */
  readonly providerCode: string | null;
  /** Exception names of every layer, outermost first, constructor names standing in for "Error". */
  readonly names: readonly string[];
  readonly messages: readonly string[];
  /** A database server answered (node-postgres puts severity on every server error). */
  readonly databaseAnswered: boolean;
}

const SQLSTATE = /^[0-9A-Z]{5}$/;
// Node/libuv errno codes start with E; undici's with UND_ERR_; Node's and axios' own with ERR_.
const ERRNO_LIKE = /^(E[A-Z0-9]+|UND_ERR_[A-Z0-9_]+|ERR_[A-Z0-9_]+|ABORT_ERR)$/;
/** axios' codes for "the server answered 4xx/5xx": they restate the status and mean nothing more. */
const RESTATES_STATUS = new Set(['ERR_BAD_REQUEST', 'ERR_BAD_RESPONSE']);
// Names that say only "something failed"; a thrown fetch Response's class name says nothing its status does not.
const GENERIC_NAMES = new Set(['Error', 'error', 'Object', 'AggregateError', 'Response']);

/** gRPC errors (grpc-js ServiceError, Connect) carry metadata and details beside a numeric code. */
const looksGrpc = (layer: object): boolean =>
  objectField(layer, 'metadata') !== null || typeof field(layer, 'details') === 'string';

/**
 * JSON-RPC / MCP errors: a code in the reserved range, or the error object's `data` member beside the
 * code (MCP's McpError). Other numeric codes (DOMException's legacy codes) are not protocol codes.
 */
const looksJsonRpc = (layer: object, code: number): boolean =>
  (code >= -32768 && code <= -32000) || 'data' in layer || 'jsonrpc' in layer;

function nameOf(layer: object): string | null {
  const own = stringField(layer, 'name');
  if (own !== null && !GENERIC_NAMES.has(own)) {
    // fetch's "TypeError: fetch failed" only wraps the real error, which is further down.
    if (own === 'TypeError' && field(layer, 'cause') !== undefined) return null;
    return own;
  }
  const ctor = (layer as { constructor?: { name?: unknown } }).constructor?.name;
  return typeof ctor === 'string' && ctor.length > 0 && !GENERIC_NAMES.has(ctor) ? ctor : null;
}

export function errorEvidence(layers: readonly object[], thrown: unknown): ErrorEvidence {
  let httpStatus: number | null = null;
  let headers: Record<string, string> = {};
  let sqlState: string | null = null;
  let grpcCode: number | string | null = null;
  let jsonRpcCode: number | null = null;
  let syscall: string | null = null;
  let providerCode: string | null = null;
  let databaseAnswered = false;
  const errnos: string[] = [];
  const names: string[] = [];
  const messages: string[] = [];

  for (const layer of layers) {
    httpStatus ??= httpStatusOf(layer);
    if (Object.keys(headers).length === 0) headers = headersOf(layer);
    if (typeof field(layer, 'severity') === 'string' && typeof field(layer, 'code') === 'string')
      databaseAnswered = true;

    const code = field(layer, 'code');
    if (typeof code === 'number' && Number.isInteger(code)) {
      if (looksGrpc(layer) && code >= 0 && code <= 16) grpcCode ??= code;
      else if (looksJsonRpc(layer, code)) jsonRpcCode ??= code;
    } else if (typeof code === 'string' && code.length > 0 && code.length <= 64) {
      if (ERRNO_LIKE.test(code)) {
        errnos.push(code);
        syscall ??= stringField(layer, 'syscall');
      } else if (SQLSTATE.test(code)) sqlState ??= code;
      else if (looksGrpc(layer)) grpcCode ??= code;
      else providerCode ??= code;
    }
    const mysqlState = stringField(layer, 'sqlState');
    if (mysqlState !== null && SQLSTATE.test(mysqlState)) sqlState ??= mysqlState;
    // A JSON-RPC error response thrown as is: { jsonrpc, error: { code, message } }.
    const body = objectField(layer, 'error');
    const bodyCode = body && field(body, 'code');
    if (typeof bodyCode === 'number' && Number.isInteger(bodyCode)) jsonRpcCode ??= bodyCode;

    const name = nameOf(layer);
    if (name !== null) names.push(name);
    const message = stringField(layer, 'message') ?? stringField(layer, 'details');
    if (message !== null && !messages.includes(message)) messages.push(message);
  }
  if (layers.length === 0 && thrown !== undefined && thrown !== null) messages.push(String(thrown));

  return {
    httpStatus,
    headers,
    sqlState,
    grpcCode,
    jsonRpcCode,
    errnos: httpStatus === null ? errnos : errnos.filter((code) => !RESTATES_STATUS.has(code)),
    syscall,
    providerCode,
    names,
    messages,
    databaseAnswered,
  };
}
