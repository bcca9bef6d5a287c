export { classify, EMPTY_RESULT_UNVERIFIED, DISPATCHED_WRITE_WITHOUT_IDEMPOTENCY_KEY } from './classify.js';
export { sideEffectBoundary, type BoundaryOutcome } from './side-effect-boundary.js';
export { callEffect, type CallEffect } from './call-effect.js';
export { sqlStatementEffect, type SqlStatementEffect } from './sql-statement.js';
export { httpMethodSemantics, type HttpMethodSemantics } from './http-method.js';
export { interpretError, type Interpretation } from './interpret-error.js';
export type { EffectProof, ErrorMeaning } from './error-meaning.js';
export { HTTP_REASON_PHRASES } from './http-reason-phrases.js';
export { normaliseGrpcCode, type GrpcName } from './grpc-status.js';
export {
  NOT_SENT_CODES,
  NOT_SENT_ON_CONNECT_CODES,
  SENT_NO_REPLY_CODES,
  TIMEOUT_CODES,
  TIMEOUT_NAMES,
  LOST_REPLY_CODES,
  JSONRPC_REQUEST_TIMEOUT,
  JSONRPC_CONNECTION_CLOSED,
  GRPC_CLIENT_SIDE,
} from './transport-codes.js';
