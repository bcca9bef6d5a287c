import { AxiosError, AxiosHeaders, type InternalAxiosRequestConfig } from 'axios';
import { Metadata, status as GrpcStatus } from '@grpc/grpc-js';
import pg from 'pg';
import { errors as undiciErrors } from 'undici';

// Errors exactly as real clients throw them. Where the library is installed its own classes build
// them; where it is not (OpenAI, AWS SDK v3, MCP), the classes below copy the library's constructor.

/** Node's net error for a refused connect (what libuv reports, fields included). */
export function netError(code: string, message: string, syscall = 'connect'): NodeJS.ErrnoException {
  return Object.assign(new Error(message), { code, errno: -111, syscall, address: '127.0.0.1', port: 9 });
}

const axiosConfig = {
  url: 'https://api.example.com/v1/reports',
  method: 'post',
  headers: new AxiosHeaders(),
} as InternalAxiosRequestConfig;

/** axios after a response with a non-2xx status (settle.js). */
export function axiosStatus(status: number, headers: Record<string, string>): AxiosError {
  const response = {
    status,
    statusText: '',
    headers: new AxiosHeaders(headers),
    config: axiosConfig,
    data: { error: 'nope' },
  };
  const code = status >= 500 ? AxiosError.ERR_BAD_RESPONSE : AxiosError.ERR_BAD_REQUEST;
  return new AxiosError(`Request failed with status code ${status}`, code, axiosConfig, {}, response);
}

/** axios when the socket failed (AxiosError.from keeps the net error as cause and copies its code). */
export const axiosNetwork = (cause: Error): AxiosError => AxiosError.from(cause, undefined, axiosConfig, {});

/** axios' own timeout (http adapter): ECONNABORTED, no response. */
export const axiosTimeout = (): AxiosError =>
  new AxiosError('timeout of 5000ms exceeded', AxiosError.ECONNABORTED, axiosConfig, {});

/** Node's fetch (undici) wraps every transport failure in "TypeError: fetch failed". */
export const fetchFailed = (cause: Error): TypeError => new TypeError('fetch failed', { cause });

export const undici = {
  headersTimeout: () => fetchFailed(new undiciErrors.HeadersTimeoutError()),
  bodyTimeout: () => fetchFailed(new undiciErrors.BodyTimeoutError()),
  connectTimeout: () => fetchFailed(new undiciErrors.ConnectTimeoutError()),
  socket: () => fetchFailed(new undiciErrors.SocketError('other side closed')),
};

/** AbortSignal.timeout() aborts fetch with this DOMException. */
export const abortTimeout = (): DOMException =>
  new DOMException('The operation was aborted due to timeout', 'TimeoutError');

/** node-postgres' DatabaseError as pg-protocol parses an ErrorResponse message. */
export function pgError(code: string, message: string, routine: string): pg.DatabaseError {
  const error = new pg.DatabaseError(message, message.length + 64, 'error');
  return Object.assign(error, { severity: 'ERROR', code, routine, file: 'aclchk.c' });
}

/** @grpc/grpc-js callErrorFromStatus(): Object.assign(new Error(message), status). */
export function grpcError(
  code: GrpcStatus,
  details: string,
): Error & { code: number; details: string; metadata: Metadata } {
  const metadata = new Metadata();
  metadata.set('grpc-retry-pushback-ms', '250');
  return Object.assign(new Error(`${code} ${GrpcStatus[code]}: ${details}`), { code, details, metadata });
}

/** @smithy/smithy-client ServiceException, the base of every AWS SDK v3 service error. */
export class AwsServiceException extends Error {
  readonly $fault: 'client' | 'server';
  readonly $metadata: { httpStatusCode: number; requestId: string; attempts: number; totalRetryDelay: number };
  constructor(name: string, message: string, httpStatusCode: number, fault: 'client' | 'server' = 'client') {
    super(message);
    Object.setPrototypeOf(this, new.target.prototype);
    this.name = name;
    this.$fault = fault;
    this.$metadata = {
      httpStatusCode,
      requestId: 'b7e4a0c1-5f4e-4c51-9f8e-1a2b3c4d5e6f',
      attempts: 1,
      totalRetryDelay: 0,
    };
  }
}

/** openai-node APIError (v4: headers are a plain record; v5: a fetch Headers). */
export class OpenAIAPIError extends Error {
  readonly code: string | null;
  readonly type: string | null;
  readonly param: string | null;
  constructor(
    readonly status: number,
    readonly error: { message: string; type: string; code: string | null; param: string | null },
    readonly headers: Record<string, string> | Headers,
  ) {
    super(`${status} ${error.message}`);
    this.code = error.code;
    this.type = error.type;
    this.param = error.param;
  }
}
export class RateLimitError extends OpenAIAPIError {}
export class PermissionDeniedError extends OpenAIAPIError {}
/** openai-node APIConnectionTimeoutError: no status, message "Request timed out." */
export class APIConnectionTimeoutError extends Error {
  readonly status = undefined;
  constructor() {
    super('Request timed out.');
  }
}

/** @modelcontextprotocol/sdk McpError: `MCP error ${code}: ${message}`, with code and data. */
export class McpError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(`MCP error ${code}: ${message}`);
    this.name = 'McpError';
  }
}
