export { classify, EMPTY_RESULT_UNVERIFIED, DISPATCHED_WRITE_WITHOUT_IDEMPOTENCY_KEY } from './classify.js';
export { sideEffectBoundary, type BoundaryOutcome } from './side-effect-boundary.js';
export { callEffect, type CallEffect } from './call-effect.js';
export { sqlStatementEffect, type SqlStatementEffect } from './sql-statement.js';
export { httpMethodSemantics, type HttpMethodSemantics } from './http-method.js';
export { interpretError, type Interpretation } from './interpret-error.js';
export type { EffectProof, ErrorMeaning } from './error-meaning.js';
export { HTTP_REASON_PHRASES } from './http-reason-phrases.js';
export { normaliseGrpcCode, type GrpcName } from './grpc-status.js';
/** What a transport error code or name proves about a call's dispatch (the SDK's capture and the OTLP receiver). */
export * as TransportCodes from './transport-codes.js';
