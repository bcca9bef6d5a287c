import { LIMITS, type Dispatch, type OutcomeStatus, type RawError } from '@tokencircuit/contracts';
import { normaliseGrpcCode, redact, TransportCodes } from '@tokencircuit/governance';
import { errorEvidence, type ErrorEvidence } from './error-evidence.js';
import { errorLayers } from './error-layers.js';
import { StatedToolFailure } from './stated-failure.js';

/** A thrown error as the outcome event reports it. */
export interface CapturedFailure {
  readonly error: RawError;
  readonly dispatch: Dispatch;
  /** The call gave up waiting (timeout, abort, deadline): the other side may still act on it. */
  readonly timedOut: boolean;
  /** The connection dropped after the request may have left (reset, broken pipe, closed socket). */
  readonly lostReply: boolean;
  /** A status came back (HTTP, database, server-side gRPC or JSON-RPC): the other side decided. */
  readonly answered: boolean;
  /** The provider and protocol the error's shape proves (null = the shape does not say). */
  readonly provider: string | null;
  readonly protocol: string | null;
}

const grpcName = (code: number | string | null): string | null => (code === null ? null : normaliseGrpcCode(code));

/** The server answered: an HTTP status, a database error, a server-side gRPC status or JSON-RPC error. */
function answered(e: ErrorEvidence): boolean {
  const grpc = grpcName(e.grpcCode);
  return (
    e.httpStatus !== null ||
    e.databaseAnswered ||
    (grpc !== null && !TransportCodes.GRPC_CLIENT_SIDE.has(grpc)) ||
    (e.jsonRpcCode !== null &&
      e.jsonRpcCode !== TransportCodes.JSONRPC_REQUEST_TIMEOUT &&
      e.jsonRpcCode !== TransportCodes.JSONRPC_CONNECTION_CLOSED)
  );
}

/**
 * Dispatch facts, known only from evidence: a response proves sent+received; a connect-phase code
 * proves not sent (connection refused ≠ timeout after send); a headers timeout, reset or broken pipe
 * means the request left and no complete answer came. Anything else stays null (not known).
 */
export function dispatchOf(e: ErrorEvidence): Dispatch {
  if (answered(e)) return { requestSent: true, responseReceived: true };
  const first = e.errnos[0];
  if (
    first !== undefined &&
    (TransportCodes.NOT_SENT_CODES.has(first) ||
      (TransportCodes.NOT_SENT_ON_CONNECT_CODES.has(first) && e.syscall === 'connect'))
  ) {
    return { requestSent: false, responseReceived: false };
  }
  if (e.errnos.includes('UND_ERR_BODY_TIMEOUT')) return { requestSent: true, responseReceived: true };
  if (
    e.errnos.some((code) => TransportCodes.SENT_NO_REPLY_CODES.has(code)) ||
    e.jsonRpcCode === TransportCodes.JSONRPC_REQUEST_TIMEOUT ||
    e.jsonRpcCode === TransportCodes.JSONRPC_CONNECTION_CLOSED
  ) {
    return { requestSent: true, responseReceived: false };
  }
  return { requestSent: null, responseReceived: null };
}

const timedOut = (e: ErrorEvidence): boolean => {
  const grpc = grpcName(e.grpcCode);
  return (
    e.errnos.some((code) => TransportCodes.TIMEOUT_CODES.has(code)) ||
    e.names.some((name) => TransportCodes.TIMEOUT_NAMES.has(name)) ||
    grpc === 'DEADLINE_EXCEEDED' ||
    grpc === 'CANCELLED' ||
    e.jsonRpcCode === TransportCodes.JSONRPC_REQUEST_TIMEOUT
  );
};

const lostReply = (e: ErrorEvidence): boolean =>
  e.errnos.some((code) => TransportCodes.LOST_REPLY_CODES.has(code)) ||
  e.jsonRpcCode === TransportCodes.JSONRPC_CONNECTION_CLOSED;

/** Node's "connect ECONNREFUSED 127.0.0.1:1" style joined outermost first; redacted and capped. */
function messageOf(e: ErrorEvidence): string | null {
  if (e.messages.length === 0) return null;
  return redact(e.messages.join(': ')).slice(0, LIMITS.errorTextChars);
}

/** Maps anything a tool may throw to the contract's RawError and dispatch facts. Never throws. */
export function captureFailure(thrown: unknown): CapturedFailure {
  const evidence = errorEvidence(errorLayers(thrown), thrown);
  const error: RawError = {
    httpStatus: evidence.httpStatus,
    sqlState: evidence.sqlState,
    grpcCode: evidence.grpcCode,
    errno: evidence.errnos[0] ?? null,
    jsonRpcCode: evidence.jsonRpcCode,
    name: (evidence.providerCode ?? evidence.names[0] ?? null)?.slice(0, LIMITS.idChars) ?? null,
    message: messageOf(evidence),
    headers: evidence.headers,
    classHint: null,
    code: evidence.providerCode?.slice(0, LIMITS.idChars) ?? null,
    details: [...evidence.details],
  };
  if (thrown instanceof StatedToolFailure) {
    // The caller knows: an answer is sent+received and never a timeout; "not sent" is nothing written.
    const { answered: replied } = thrown.stated;
    return {
      error,
      dispatch: { requestSent: replied, responseReceived: replied },
      timedOut: false,
      lostReply: false,
      answered: replied,
      provider: evidence.provider,
      protocol: evidence.protocol,
    };
  }
  return {
    error,
    dispatch: dispatchOf(evidence),
    timedOut: timedOut(evidence),
    lostReply: lostReply(evidence),
    answered: answered(evidence),
    provider: evidence.provider,
    protocol: evidence.protocol,
  };
}

/**
 * The outcome status of a failed call. "unknown", not "failed", when a call that may change the world
 * gave up waiting or lost its reply after the request may have left: the write may have happened,
 * and reporting it as failed would invite the duplicate retry the RFC exists to prevent.
 */
export function failureStatus(failure: CapturedFailure, isRead: boolean): Exclude<OutcomeStatus, 'succeeded'> {
  if (isRead || failure.answered || failure.dispatch.requestSent === false) return 'failed';
  return failure.timedOut || failure.lostReply ? 'unknown' : 'failed';
}
