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

/** Canonical gRPC status names by code number (grpc.io "Status codes and their use in gRPC"). */
export const GRPC_NAMES = [
  'OK',
  'CANCELLED',
  'UNKNOWN',
  'INVALID_ARGUMENT',
  'DEADLINE_EXCEEDED',
  'NOT_FOUND',
  'ALREADY_EXISTS',
  'PERMISSION_DENIED',
  'RESOURCE_EXHAUSTED',
  'FAILED_PRECONDITION',
  'ABORTED',
  'OUT_OF_RANGE',
  'UNIMPLEMENTED',
  'INTERNAL',
  'UNAVAILABLE',
  'DATA_LOSS',
  'UNAUTHENTICATED',
] as const;
export type GrpcName = (typeof GRPC_NAMES)[number];

const GRPC: Readonly<Record<Exclude<GrpcName, 'OK'>, Semantics>> = {
  // "typically by the caller": the server may already have acted.
  CANCELLED: transient('indeterminate'),
  UNKNOWN: transient('indeterminate', { generic: true }),
  INVALID_ARGUMENT: validation(),
  // "For operations that change the state of the system, this error may be returned even if the
  // operation has completed successfully."
  DEADLINE_EXCEEDED: transient('indeterminate'),
  NOT_FOUND: missingResource(),
  ALREADY_EXISTS: invariant('rejected', { duplicateOnRetry: true }),
  PERMISSION_DENIED: permission(),
  // A per-user quota or rate limit refusing the call.
  RESOURCE_EXHAUSTED: transient('rejected'),
  // "the client should not retry until the system state has been explicitly fixed": fail closed.
  FAILED_PRECONDITION: invariant(),
  // Concurrency conflict (sequencer check, transaction abort): "retry at a higher level".
  ABORTED: transient('rolled_back'),
  OUT_OF_RANGE: validation(),
  UNIMPLEMENTED: validation(),
  // Mirrors HTTP 500: the library also uses it for transport faults (RST_STREAM), so it is not
  // treated as a broken invariant; DATA_LOSS is.
  INTERNAL: transient('indeterminate', { generic: true }),
  // "Note that it is not always safe to retry non-idempotent operations."
  UNAVAILABLE: transient('indeterminate'),
  DATA_LOSS: invariant('indeterminate'),
  UNAUTHENTICATED: permission(),
};

const isGrpcName = (s: string): s is GrpcName => (GRPC_NAMES as readonly string[]).includes(s);

/**
 * Normalises the spellings producers use: 14, "14", "UNAVAILABLE", "StatusCode.UNAVAILABLE" (Python),
 * "Unavailable" / "PermissionDenied" / "Canceled" (Go's codes.Code String()).
 */
export function normaliseGrpcCode(code: number | string): GrpcName | null {
  if (typeof code === 'number') return GRPC_NAMES[code] ?? null;
  const trimmed = code.trim().replace(/^(?:grpc\.)?status(?:code)?\./i, '');
  if (/^\d{1,2}$/.test(trimmed)) return GRPC_NAMES[Number(trimmed)] ?? null;
  const snake = trimmed
    .replace(/([a-z])([A-Z])/g, '$1_$2')
    .replace(/[\s-]+/g, '_')
    .toUpperCase();
  const name = snake === 'CANCELED' ? 'CANCELLED' : snake;
  return isGrpcName(name) ? name : null;
}

export function grpcMeaning(name: GrpcName): ErrorMeaning | null {
  if (name === 'OK') return null;
  return meaningOf(GRPC[name], `grpc:${name}`);
}
