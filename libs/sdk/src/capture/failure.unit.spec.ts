import { describe, expect, it } from 'vitest';
import {
  ToolCallOutcomeDataSchema,
  ToolCallSchema,
  type DeclaredEffect,
  type FailureClass,
  type RawError,
} from '@tokencircuit/contracts';
import { classify } from '@tokencircuit/governance';
import { status as Grpc } from '@grpc/grpc-js';
import { captureFailure, failureStatus } from './failure.js';
import {
  abortTimeout,
  APIConnectionTimeoutError,
  AwsServiceException,
  axiosNetwork,
  axiosStatus,
  axiosTimeout,
  fetchFailed,
  grpcError,
  McpError,
  netError,
  PermissionDeniedError,
  pgError,
  RateLimitError,
  undici,
} from './spec-support/error-shapes.js';

interface Case {
  readonly shape: string;
  readonly thrown: () => unknown;
  readonly effect: DeclaredEffect;
  readonly raw: Partial<RawError>;
  readonly dispatch: readonly [requestSent: boolean | null, responseReceived: boolean | null];
  readonly status: 'failed' | 'unknown';
  /** What the core makes of the captured outcome: the mapping is only right if this is. */
  readonly failureClass: FailureClass;
}

const CASES: readonly Case[] = [
  // HTTP clients
  {
    shape: 'axios 403 with a WWW-Authenticate challenge',
    thrown: () =>
      axiosStatus(403, {
        'www-authenticate': 'Bearer error="insufficient_scope"',
        'x-request-id': 'r-1',
        'content-type': 'application/json',
      }),
    effect: 'read',
    raw: {
      httpStatus: 403,
      errno: null,
      name: 'AxiosError',
      headers: { 'www-authenticate': 'Bearer error="insufficient_scope"' },
    },
    dispatch: [true, true],
    status: 'failed',
    failureClass: 'permission',
  },
  {
    shape: 'axios 429 with Retry-After and rate-limit headers',
    thrown: () =>
      axiosStatus(429, { 'retry-after': '7', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '1767600000' }),
    effect: 'read',
    raw: {
      httpStatus: 429,
      headers: { 'retry-after': '7', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '1767600000' },
    },
    dispatch: [true, true],
    status: 'failed',
    failureClass: 'transient',
  },
  {
    // Header names are case-insensitive (RFC 9110 §5.1): a client that keeps the server's spelling is read alike.
    shape: 'a 503 whose headers keep the server spelling (Retry-After, X-RateLimit-Reset)',
    thrown: () => axiosStatus(503, { 'Retry-After': '30', 'X-RateLimit-Reset': '1767600000', 'X-Request-Id': 'r-2' }),
    effect: 'read',
    raw: { httpStatus: 503, headers: { 'retry-after': '30', 'x-ratelimit-reset': '1767600000' } },
    dispatch: [true, true],
    status: 'failed',
    failureClass: 'transient',
  },
  {
    shape: 'axios ECONNREFUSED on a POST (nothing left the client)',
    thrown: () => axiosNetwork(netError('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:9')),
    effect: 'write',
    raw: { httpStatus: null, errno: 'ECONNREFUSED', message: 'connect ECONNREFUSED 127.0.0.1:9' },
    dispatch: [false, false],
    status: 'failed',
    failureClass: 'transient',
  },
  {
    shape: "axios' own timeout on a POST",
    thrown: axiosTimeout,
    effect: 'write',
    raw: { errno: 'ECONNABORTED', name: 'AxiosError', message: 'timeout of 5000ms exceeded' },
    dispatch: [null, null],
    status: 'unknown',
    failureClass: 'ambiguous_effect',
  },
  {
    shape: 'fetch failed: ECONNREFUSED (undici cause chain)',
    thrown: () => fetchFailed(netError('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:9')),
    effect: 'write',
    raw: { errno: 'ECONNREFUSED', name: null, message: 'fetch failed: connect ECONNREFUSED 127.0.0.1:9' },
    dispatch: [false, false],
    status: 'failed',
    failureClass: 'transient',
  },
  {
    shape: 'fetch failed: ENOTFOUND (getaddrinfo)',
    thrown: () => fetchFailed(netError('ENOTFOUND', 'getaddrinfo ENOTFOUND api.invalid', 'getaddrinfo')),
    effect: 'read',
    raw: { errno: 'ENOTFOUND' },
    dispatch: [false, false],
    status: 'failed',
    failureClass: 'missing_resource',
  },
  {
    shape: 'fetch failed: undici headers timeout after the POST was sent',
    thrown: undici.headersTimeout,
    effect: 'write',
    raw: { errno: 'UND_ERR_HEADERS_TIMEOUT', name: 'HeadersTimeoutError' },
    dispatch: [true, false],
    status: 'unknown',
    failureClass: 'ambiguous_effect',
  },
  {
    shape: 'fetch failed: undici connect timeout (never sent)',
    thrown: undici.connectTimeout,
    effect: 'write',
    raw: { errno: 'UND_ERR_CONNECT_TIMEOUT' },
    dispatch: [false, false],
    status: 'failed',
    failureClass: 'transient',
  },
  {
    shape: 'fetch failed: socket closed mid-request on a POST',
    thrown: undici.socket,
    effect: 'write',
    raw: { errno: 'UND_ERR_SOCKET' },
    dispatch: [true, false],
    status: 'unknown',
    failureClass: 'ambiguous_effect',
  },
  {
    shape: 'fetch aborted by AbortSignal.timeout() on a POST',
    thrown: abortTimeout,
    effect: 'write',
    raw: { name: 'TimeoutError', jsonRpcCode: null, errno: null },
    dispatch: [null, null],
    status: 'unknown',
    failureClass: 'ambiguous_effect',
  },
  {
    shape: 'fetch aborted by AbortSignal.timeout() on a GET read: a read has no effect to be unsure about',
    thrown: abortTimeout,
    effect: 'read',
    raw: { name: 'TimeoutError' },
    dispatch: [null, null],
    status: 'failed',
    failureClass: 'transient',
  },
  {
    shape: 'a fetch Response thrown as is (if (!res.ok) throw res)',
    thrown: () =>
      new Response('{"error":"forbidden"}', { status: 403, headers: { 'www-authenticate': 'Basic realm="reports"' } }),
    effect: 'read',
    raw: { httpStatus: 403, name: null, headers: { 'www-authenticate': 'Basic realm="reports"' } },
    dispatch: [true, true],
    status: 'failed',
    failureClass: 'permission',
  },
  // Databases and RPC
  {
    shape: 'node-postgres DatabaseError 42501 insufficient_privilege',
    thrown: () => pgError('42501', 'permission denied for table salaries', 'aclcheck_error'),
    effect: 'read',
    raw: { sqlState: '42501', name: 'DatabaseError', errno: null, message: 'permission denied for table salaries' },
    dispatch: [true, true],
    status: 'failed',
    failureClass: 'permission',
  },
  {
    shape: 'node-postgres DatabaseError 40001 serialization_failure on an UPDATE (rolled back)',
    thrown: () => pgError('40001', 'could not serialize access due to concurrent update', 'ExecUpdate'),
    effect: 'write',
    raw: { sqlState: '40001' },
    dispatch: [true, true],
    status: 'failed',
    failureClass: 'transient',
  },
  {
    shape: 'node-postgres connection refused (pg passes the net error through)',
    thrown: () => netError('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432'),
    effect: 'write',
    raw: { errno: 'ECONNREFUSED', sqlState: null },
    dispatch: [false, false],
    status: 'failed',
    failureClass: 'transient',
  },
  {
    shape: '@grpc/grpc-js ServiceError PERMISSION_DENIED',
    thrown: () => grpcError(Grpc.PERMISSION_DENIED, 'caller lacks reports.read'),
    effect: 'read',
    raw: { grpcCode: 7, jsonRpcCode: null, message: '7 PERMISSION_DENIED: caller lacks reports.read' },
    dispatch: [true, true],
    status: 'failed',
    failureClass: 'permission',
  },
  {
    shape: '@grpc/grpc-js ServiceError DEADLINE_EXCEEDED on a mutation',
    thrown: () => grpcError(Grpc.DEADLINE_EXCEEDED, 'Deadline exceeded after 2.001s'),
    effect: 'write',
    raw: { grpcCode: 4 },
    dispatch: [null, null],
    status: 'unknown',
    failureClass: 'ambiguous_effect',
  },
  {
    shape: 'MCP / JSON-RPC invalid params',
    thrown: () => new McpError(-32602, 'Invalid params: "path" is required', { field: 'path' }),
    effect: 'read',
    raw: { jsonRpcCode: -32602, name: 'McpError' },
    dispatch: [true, true],
    status: 'failed',
    failureClass: 'validation',
  },
  {
    shape: 'MCP request timeout (-32001, client side) on a write tool',
    thrown: () => new McpError(-32001, 'Request timed out'),
    effect: 'write',
    raw: { jsonRpcCode: -32001 },
    dispatch: [true, false],
    status: 'unknown',
    failureClass: 'ambiguous_effect',
  },
  // Cloud and AI SDKs
  {
    shape: 'AWS SDK v3 ThrottlingException ($metadata.httpStatusCode 400)',
    thrown: () => new AwsServiceException('ThrottlingException', 'Rate exceeded', 400),
    effect: 'read',
    raw: { httpStatus: 400, name: 'ThrottlingException', message: 'Rate exceeded' },
    dispatch: [true, true],
    status: 'failed',
    failureClass: 'transient',
  },
  {
    shape: 'AWS SDK v3 AccessDeniedException',
    thrown: () =>
      new AwsServiceException('AccessDeniedException', 'User is not authorized to perform: dynamodb:PutItem', 400),
    effect: 'write',
    raw: { httpStatus: 400, name: 'AccessDeniedException' },
    dispatch: [true, true],
    status: 'failed',
    failureClass: 'permission',
  },
  {
    shape: 'OpenAI SDK v4 RateLimitError 429 insufficient_quota (plain header record)',
    thrown: () =>
      new RateLimitError(
        429,
        {
          message: 'You exceeded your current quota',
          type: 'insufficient_quota',
          code: 'insufficient_quota',
          param: null,
        },
        { 'retry-after': '20', 'x-ratelimit-remaining-requests': '0', 'x-request-id': 'req_1' },
      ),
    effect: 'read',
    raw: {
      httpStatus: 429,
      name: 'insufficient_quota',
      headers: { 'retry-after': '20', 'x-ratelimit-remaining-requests': '0' },
    },
    dispatch: [true, true],
    status: 'failed',
    failureClass: 'permission',
  },
  {
    shape: 'OpenAI SDK v5 PermissionDeniedError 403 (fetch Headers, no code)',
    thrown: () =>
      new PermissionDeniedError(
        403,
        { message: 'Project does not have access to model', type: 'invalid_request_error', code: null, param: null },
        new Headers({ 'x-request-id': 'req_2' }),
      ),
    effect: 'read',
    raw: { httpStatus: 403, name: 'PermissionDeniedError', headers: {} },
    dispatch: [true, true],
    status: 'failed',
    failureClass: 'permission',
  },
  {
    shape: 'OpenAI SDK APIConnectionTimeoutError on a write',
    thrown: () => new APIConnectionTimeoutError(),
    effect: 'write',
    raw: { httpStatus: null, name: 'APIConnectionTimeoutError' },
    dispatch: [null, null],
    status: 'unknown',
    failureClass: 'ambiguous_effect',
  },
  // Node
  {
    shape: 'Node ECONNRESET on a POST (reply lost)',
    thrown: () => netError('ECONNRESET', 'read ECONNRESET', 'read'),
    effect: 'write',
    raw: { errno: 'ECONNRESET' },
    dispatch: [true, false],
    status: 'unknown',
    failureClass: 'ambiguous_effect',
  },
  {
    shape: 'Node fs ENOENT',
    thrown: () =>
      Object.assign(new Error("ENOENT: no such file or directory, open '/data/q3.csv'"), {
        code: 'ENOENT',
        errno: -2,
        syscall: 'open',
        path: '/data/q3.csv',
      }),
    effect: 'read',
    raw: { errno: 'ENOENT' },
    dispatch: [null, null],
    status: 'failed',
    failureClass: 'missing_resource',
  },
];

const callWith = (effect: DeclaredEffect) =>
  ToolCallSchema.parse({
    agent: 'a',
    run: 'r',
    callId: 'c-1',
    attempt: 1,
    intentId: 'i-1',
    tool: 'reports.fetch',
    effect,
    httpMethod: effect === 'read' ? 'GET' : 'POST',
  });

describe('captureFailure: real error shapes → RawError, dispatch facts and outcome status', () => {
  it.each(CASES)('$shape', (c) => {
    const failure = captureFailure(c.thrown());
    expect(failure.error).toMatchObject(c.raw);
    expect([failure.dispatch.requestSent, failure.dispatch.responseReceived]).toEqual(c.dispatch);
    const call = callWith(c.effect);
    const status = failureStatus(failure, c.effect === 'read');
    expect(status).toBe(c.status);

    // The outcome must pass the contract, and the core must read it as the class the shape means.
    const outcome = ToolCallOutcomeDataSchema.parse({ call, status, error: failure.error, dispatch: failure.dispatch });
    expect(classify(outcome)?.failureClass).toBe(c.failureClass);
  });
});

describe('captureFailure: what never reaches the wire', () => {
  it('redacts credentials in messages and keeps only meaningful headers', () => {
    const leaky = Object.assign(
      new Error(
        '401 from https://user:hunter2@api.example.com with Authorization: Bearer sk-live-0123456789abcdefghij',
      ),
      {
        status: 401,
        headers: {
          'www-authenticate': 'Bearer realm="api"',
          'set-cookie': 'session=abc',
          authorization: 'Bearer sk-live-0123456789abcdefghij',
        },
      },
    );
    const { error } = captureFailure(leaky);
    expect(error.message).not.toContain('hunter2');
    expect(error.message).not.toContain('sk-live-0123456789abcdefghij');
    expect(error.message).toContain('[REDACTED');
    expect(Object.keys(error.headers)).toEqual(['www-authenticate']);
  });

  it('caps the message at the contract limit and survives cycles, strings and null', () => {
    const long = new Error('x'.repeat(10_000));
    expect(captureFailure(long).error.message).toHaveLength(4096);
    const cyclic = new Error('outer') as Error & { cause?: unknown };
    cyclic.cause = cyclic;
    expect(captureFailure(cyclic).error.message).toBe('outer');
    expect(captureFailure('plain string thrown').error).toMatchObject({ message: 'plain string thrown', name: null });
    expect(captureFailure(null).error).toMatchObject({ message: null, name: null, httpStatus: null });
  });

  it('ignores numbers that are not HTTP statuses and DOMException legacy codes', () => {
    const odd = Object.assign(new Error('weird'), { status: 42, statusCode: 'teapot' });
    expect(captureFailure(odd).error.httpStatus).toBeNull();
    const aborted = new DOMException('This operation was aborted', 'AbortError');
    expect(captureFailure(aborted).error).toMatchObject({ name: 'AbortError', jsonRpcCode: null, grpcCode: null });
  });
});

describe('captureFailure: the contract-v2 facts a thrown error proves', () => {
  it('names the provider only from shapes no other library produces', () => {
    expect(captureFailure(pgError('42501', 'permission denied for table payroll', 'aclcheck_error'))).toMatchObject({
      provider: 'postgres',
      protocol: null,
    });
    expect(captureFailure(new AwsServiceException('ConditionalCheckFailedException', 'failed', 400))).toMatchObject({
      provider: 'aws',
      protocol: 'http',
      error: { code: null, name: 'ConditionalCheckFailedException' },
    });
    expect(captureFailure(grpcError(Grpc.ABORTED, 'conflict'))).toMatchObject({ provider: null, protocol: 'grpc' });
    expect(captureFailure(netError('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432'))).toMatchObject({
      provider: null,
      protocol: null,
    });
  });

  it('keeps the provider code and the structured details of the body (google.rpc ErrorInfo, Stripe decline_code)', () => {
    const google = Object.assign(new Error('Quota exceeded'), {
      status: 429,
      error: {
        code: 429,
        status: 'RESOURCE_EXHAUSTED',
        details: [
          {
            '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
            reason: 'RATE_LIMIT_EXCEEDED',
            domain: 'googleapis.com',
          },
        ],
      },
    });
    expect(captureFailure(google).error.details).toEqual([
      {
        type: 'type.googleapis.com/google.rpc.ErrorInfo',
        code: null,
        reason: 'RATE_LIMIT_EXCEEDED',
        domain: 'googleapis.com',
        retryDelayMs: null,
      },
    ]);
    const stripe = Object.assign(new Error('Your card has insufficient funds.'), {
      type: 'card_error',
      code: 'card_declined',
      decline_code: 'insufficient_funds',
      statusCode: 402,
    });
    const captured = captureFailure(stripe).error;
    expect(captured.code).toBe('card_declined');
    expect(captured.details).toEqual([
      { type: 'card_error', code: 'card_declined', reason: 'insufficient_funds', domain: null, retryDelayMs: null },
    ]);
    // What the SDK captures is a valid v2 outcome.
    expect(() =>
      ToolCallOutcomeDataSchema.parse({ call: callWith('write'), status: 'failed', error: captured }),
    ).not.toThrow();
  });
});
