import { LIMITS, truncateText, type Dispatch, type OutcomeStatus, type RawErrorInput } from '@tokencircuit/contracts';
import { normaliseGrpcCode, TransportCodes } from '@tokencircuit/governance';
import { integer, own, text } from './attribute-lookup.js';
import { STATUS_CODE, type OtlpSpan } from './otlp-span.js';

/** What a tool span and the client spans under it say about how the call ended. */
export interface ErrorFacts {
  readonly status: OutcomeStatus;
  readonly error: RawErrorInput | null;
  readonly dispatch: Dispatch;
  readonly provider: string | null;
  readonly protocol: string | null;
  readonly httpMethod: string | null;
  /** The request's path (HTTP url.path or url.full), the resource an endpoint names. */
  readonly urlPath: string | null;
  readonly sqlStatement: string | null;
}

// The SDK's own tables (governance's transport codes), as far as a span's error.type can carry them; plus
// OpenTelemetry's own error.type value for a timeout.
const OTEL_TIMEOUT = 'timeout';
const ERRNO = /^(E[A-Z0-9]{2,}|UND_ERR_[A-Z_]+|ERR_[A-Z_]+|ABORT_ERR)$/;
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'TRACE']);
const JSONRPC_NO_ANSWER = new Set([TransportCodes.JSONRPC_REQUEST_TIMEOUT, TransportCodes.JSONRPC_CONNECTION_CLOSED]);

/** db.system(.name) values → the provider names classify() reads (contracts' ProviderSchema). */
const DB_PROVIDERS: Record<string, string> = {
  postgresql: 'postgres',
  mysql: 'mysql',
  mariadb: 'mariadb',
  mssql: 'sqlserver',
  'microsoft.sql_server': 'sqlserver',
  oracle: 'oracle',
  'oracle.db': 'oracle',
  sqlite: 'sqlite',
  mongodb: 'mongodb',
  redis: 'redis',
  cassandra: 'cassandra',
  elasticsearch: 'elasticsearch',
  'aws.dynamodb': 'dynamodb',
  dynamodb: 'dynamodb',
  neo4j: 'neo4j',
};
const SQL_DATABASES = new Set(['postgres', 'mysql', 'mariadb', 'sqlserver', 'oracle', 'sqlite']);

/**
 * Error facts of one tool call in the dialect classify() reads: whether it failed comes from the tool span
 * (its status, `error.type`, exception events); what the failure was (HTTP status, gRPC or JSON-RPC code,
 * SQLSTATE, errno) from the tool span or, failing that, from the client span under it that carries the
 * transport's attributes (HTTP, RPC and database conventions). Pure.
 */
export function errorFacts(
  tool: OtlpSpan,
  descendants: readonly OtlpSpan[],
  isMcp: boolean,
  declaredRead: boolean,
): ErrorFacts {
  const transport = transportSpan(tool, descendants);
  const exception = lastException(tool) ?? (transport === tool ? null : lastException(transport));
  const toolErrorType = own(tool, 'error.type');
  const failed = tool.status.code === STATUS_CODE.error || toolErrorType !== null || lastException(tool) !== null;

  const method = upper(text(transport, 'http.request.method', 'http.method'));
  const httpMethod = method === null || method === '_OTHER' ? null : method;
  const httpStatus = inRange(integer(transport, 'http.response.status_code', 'http.status_code'), 100, 599);
  const rpcSystem = text(transport, 'rpc.system.name', 'rpc.system');
  const rpcStatus = text(transport, 'rpc.response.status_code');
  const grpcCode =
    integer(transport, 'rpc.grpc.status_code') ??
    (rpcSystem === 'grpc' && rpcStatus !== null ? grpcCodeOf(rpcStatus) : null);
  const jsonRpcCode =
    integer(transport, 'rpc.jsonrpc.error_code') ??
    ((isMcp || rpcSystem === 'jsonrpc') && rpcStatus !== null && /^-?\d+$/.test(rpcStatus) ? Number(rpcStatus) : null);
  const dbStatus = text(transport, 'db.response.status_code');
  const sqlState = dbStatus !== null && /^[0-9A-Z]{5}$/.test(dbStatus) ? dbStatus : null;
  const dbSystem = text(transport, 'db.system.name', 'db.system');
  const provider =
    dbSystem === null ? (rpcSystem === 'aws-api' ? 'aws' : null) : (DB_PROVIDERS[dbSystem.toLowerCase()] ?? null);

  const errorTypes = [toolErrorType, transport === tool ? null : own(transport, 'error.type')].filter(
    (t): t is string => t !== null,
  );
  const names = [exception?.type ?? null, ...errorTypes].filter((n): n is string => n !== null);
  const errnos = names.filter((n) => ERRNO.test(n));
  const answered =
    httpStatus !== null ||
    sqlState !== null ||
    (grpcCode !== null && !TransportCodes.GRPC_CLIENT_SIDE.has(normaliseGrpcCode(grpcCode) ?? '')) ||
    (jsonRpcCode !== null && !JSONRPC_NO_ANSWER.has(jsonRpcCode));
  const dispatch: Dispatch = answered
    ? { requestSent: true, responseReceived: true }
    : errnos.some((e) => TransportCodes.NOT_SENT_CODES.has(e))
      ? { requestSent: false, responseReceived: false }
      : errnos.some((e) => TransportCodes.SENT_NO_REPLY_CODES.has(e)) ||
          (jsonRpcCode !== null && JSONRPC_NO_ANSWER.has(jsonRpcCode))
        ? { requestSent: true, responseReceived: false }
        : { requestSent: null, responseReceived: null };
  const timedOut =
    names.some(
      (n) => TransportCodes.TIMEOUT_CODES.has(n) || TransportCodes.TIMEOUT_NAMES.has(n) || n === OTEL_TIMEOUT,
    ) ||
    grpcCode === 4 ||
    jsonRpcCode === TransportCodes.JSONRPC_REQUEST_TIMEOUT;
  const lostReply =
    errnos.some((e) => TransportCodes.LOST_REPLY_CODES.has(e)) ||
    jsonRpcCode === TransportCodes.JSONRPC_CONNECTION_CLOSED;
  const isRead = declaredRead || (httpMethod !== null && SAFE_METHODS.has(httpMethod));
  // As the SDK reports it: a call that may change the world and gave up waiting (or lost its reply) after
  // the request may have left has an unknown outcome, not a failed one.
  const status: OutcomeStatus = !failed
    ? 'succeeded'
    : (timedOut || lostReply) && !answered && dispatch.requestSent !== false && !isRead
      ? 'unknown'
      : 'failed';

  const message = exception?.message || tool.status.message || (transport === tool ? '' : transport.status.message);
  const nameOf = names.find((n) => !ERRNO.test(n) && !/^\d+$/.test(n) && n !== '_OTHER') ?? null;
  const error: RawErrorInput | null =
    status === 'succeeded'
      ? null
      : {
          httpStatus,
          sqlState,
          grpcCode,
          errno: errnos[0] ?? null,
          jsonRpcCode,
          name: nameOf === null ? null : truncateText(nameOf, LIMITS.idChars),
          message: message ? truncateText(message, LIMITS.errorTextChars) : null,
          headers: responseHeaders(transport),
        };
  const urlPath = text(transport, 'url.path') ?? pathOf(text(transport, 'url.full', 'http.url'));
  const statement = text(transport, 'db.query.text', 'db.statement');
  return {
    status,
    error,
    dispatch,
    provider,
    protocol: isMcp
      ? 'mcp'
      : httpMethod !== null || httpStatus !== null
        ? 'http'
        : rpcSystem === 'grpc'
          ? 'grpc'
          : rpcSystem === 'jsonrpc'
            ? 'json-rpc'
            : provider !== null && SQL_DATABASES.has(provider)
              ? 'sql'
              : provider === 'redis'
                ? 'redis'
                : null,
    httpMethod,
    urlPath,
    sqlStatement: statement === null ? null : truncateText(statement, LIMITS.errorTextChars),
  };
}

/**
 * The span whose attributes describe the transport: the tool span when it carries them itself, else the
 * last client span under it that does, preferring one that ended in error (the request that failed).
 */
function transportSpan(tool: OtlpSpan, descendants: readonly OtlpSpan[]): OtlpSpan {
  if (carriesTransport(tool)) return tool;
  const candidates = descendants.filter(carriesTransport).sort((a, b) => (a.endNanos < b.endNanos ? -1 : 1));
  const failed = candidates.filter((s) => s.status.code === STATUS_CODE.error || s.attributes.has('error.type'));
  return failed.at(-1) ?? candidates.at(-1) ?? tool;
}

const TRANSPORT_ATTRIBUTES = [
  'http.request.method',
  'http.method',
  'rpc.system',
  'rpc.system.name',
  'db.system',
  'db.system.name',
];
const carriesTransport = (span: OtlpSpan): boolean => TRANSPORT_ATTRIBUTES.some((name) => span.attributes.has(name));

function lastException(span: OtlpSpan): { type: string | null; message: string | null } | null {
  const event = span.events.filter((e) => e.name === 'exception').at(-1);
  if (!event) return null;
  const type = event.attributes.get('exception.type');
  const message = event.attributes.get('exception.message');
  return {
    type: typeof type === 'string' && type ? type : null,
    message: typeof message === 'string' ? message : null,
  };
}

/** `http.response.header.<name>` attributes (string arrays by the HTTP conventions) → RawError.headers. */
function responseHeaders(span: OtlpSpan): Record<string, string> {
  const headers: Record<string, string> = {};
  let count = 0;
  for (const [key, value] of span.attributes) {
    if (!key.startsWith('http.response.header.') || count === LIMITS.headers) continue;
    const name = key.slice('http.response.header.'.length).toLowerCase();
    if (name === '' || name.length > 128 || name === '__proto__') continue;
    const joined = Array.isArray(value)
      ? value.filter((v) => typeof v === 'string').join(', ')
      : typeof value === 'string'
        ? value
        : null;
    if (joined === null) continue;
    headers[name] = truncateText(joined, 1024);
    count += 1;
  }
  return headers;
}

function grpcCodeOf(status: string): number | string {
  return /^\d{1,2}$/.test(status) ? Number(status) : status.toUpperCase().slice(0, 64);
}

function pathOf(url: string | null): string | null {
  if (url === null) return null;
  try {
    return new URL(url).pathname;
  } catch {
    return null;
  }
}

const upper = (value: string | null): string | null => (value === null ? null : value.toUpperCase());
const inRange = (value: number | null, min: number, max: number): number | null =>
  value !== null && value >= min && value <= max ? value : null;
