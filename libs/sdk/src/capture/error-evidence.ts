import type { ErrorDetail } from '@tokencircuit/contracts';
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
  /** Whose dialect the codes are in, when the error's shape says so (node-postgres, mysql2, AWS SDK v3). */
  readonly provider: string | null;
  /** The protocol the shape proves (an HTTP status, a gRPC status, a JSON-RPC error). */
  readonly protocol: string | null;
  /** Structured details the layers carry: google.rpc details, Stripe's decline_code, GraphQL extensions. */
  readonly details: readonly ErrorDetail[];
}

const MAX_DETAILS = 16;
const short = (value: unknown): string | null =>
  typeof value === 'string' && value.length > 0
    ? value.slice(0, 256)
    : typeof value === 'number'
      ? String(value)
      : null;

/** One structured detail from an object shaped like google.rpc.ErrorInfo, a Stripe error or a GraphQL extension. */
function detailOf(value: unknown): ErrorDetail | null {
  if (typeof value !== 'object' || value === null) return null;
  const o = value as Record<string, unknown>;
  const detail: ErrorDetail = {
    type: short(o['@type']) ?? short(o['type']),
    code: short(o['code']),
    reason: short(o['reason']) ?? short(o['decline_code']),
    domain: short(o['domain']),
    retryDelayMs: null,
  };
  return detail.type || detail.code || detail.reason ? detail : null;
}

/** Details a layer carries: grpc/Google `details[]`, an `error` body, Stripe's `raw`, GraphQL `extensions`. */
function detailsOf(layer: object): ErrorDetail[] {
  const found: ErrorDetail[] = [];
  const push = (v: unknown) => {
    const d = detailOf(v);
    if (d !== null && found.length < MAX_DETAILS) found.push(d);
  };
  const details = field(layer, 'errorDetails') ?? field(layer, 'details');
  if (Array.isArray(details)) details.forEach(push);
  const body = objectField(layer, 'error');
  if (body !== null) {
    const nested = field(body, 'details');
    if (Array.isArray(nested)) nested.forEach(push);
    const errors = field(body, 'errors');
    if (Array.isArray(errors)) errors.forEach(push);
  }
  if (typeof field(layer, 'decline_code') === 'string')
    push({ code: field(layer, 'code'), decline_code: field(layer, 'decline_code'), type: field(layer, 'type') });
  const extensions = objectField(layer, 'extensions');
  if (extensions !== null) push(extensions);
  return found;
}

/** The provider a layer's shape proves: only shapes no other client library produces. */
function providerOf(layer: object): string | null {
  if (typeof field(layer, 'severity') === 'string' && typeof field(layer, 'routine') === 'string') return 'postgres';
  if (typeof field(layer, 'sqlMessage') === 'string') return 'mysql';
  if (objectField(layer, '$metadata') !== null && typeof field(layer, '$fault') === 'string') return 'aws';
  return null;
}

const SQLSTATE = /^[0-9A-Z]{5}$/;
// Node/libuv errno codes start with E; undici's with UND_ERR_; Node's and axios' own with ERR_.
const ERRNO_LIKE = /^(E[A-Z0-9]+|UND_ERR_[A-Z0-9_]+|ERR_[A-Z0-9_]+|ABORT_ERR)$/;
/** axios' codes for "the server answered 4xx/5xx": they restate the status and mean nothing more. */
const RESTATES_STATUS = new Set(['ERR_BAD_REQUEST', 'ERR_BAD_RESPONSE']);
// Names that say only "something failed"; a thrown fetch Response's class name says nothing its status does not,
// and a StatedToolFailure only carries the caller's dispatch facts around the tool's own text.
const GENERIC_NAMES = new Set(['Error', 'error', 'Object', 'AggregateError', 'Response', 'StatedToolFailure']);

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
  let provider: string | null = null;
  const details: ErrorDetail[] = [];
  const errnos: string[] = [];
  const names: string[] = [];
  const messages: string[] = [];

  for (const layer of layers) {
    httpStatus ??= httpStatusOf(layer);
    provider ??= providerOf(layer);
    for (const d of detailsOf(layer)) if (details.length < MAX_DETAILS) details.push(d);
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
    provider,
    protocol: grpcCode !== null ? 'grpc' : jsonRpcCode !== null ? 'json-rpc' : httpStatus !== null ? 'http' : null,
    details,
  };
}
