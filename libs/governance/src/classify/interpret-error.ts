import type { RawError } from '@tokencircuit/contracts';
import { meaningOf, transient, type ErrorMeaning } from './error-meaning.js';
import { errnoMeaning, isKnownErrno } from './errno.js';
import { grpcMeaning, normaliseGrpcCode, type GrpcName } from './grpc-status.js';
import { httpStatusMeaning, rateLimitMeaning } from './http-status.js';
import { jsonRpcMeaning } from './json-rpc.js';
import { messageCodes } from './message-codes.js';
import { messageMeaning } from './message-text.js';
import { exceptionNameMeaning, nameFamilyMeaning } from './name-families.js';
import { bareName, isContentFreeName, mysqlNumberMeaning, providerMeaning } from './provider-codes.js';
import { CONNECT_PHASE_SQLSTATES, sqlStateClassMeaning, sqlStateMeaning } from './sqlstate.js';

/** interpretError's answer: the winning meaning, its effect already corrected by dispatch proofs. */
export interface Interpretation {
  readonly meaning: ErrorMeaning;
  /** Every candidate in precedence order, for tests and for the curious. */
  readonly candidates: readonly ErrorMeaning[];
}

const compact = <T>(xs: ReadonlyArray<T | null | undefined>): T[] =>
  xs.filter((x): x is T => x !== null && x !== undefined);

/**
 * An exact name: a documented provider code, a gRPC status name, a MySQL symbol — and, for the
 * error's own name only, an errno (an errno inside a reply body is the server's detail, not ours).
 */
const exactNameMeaning = (name: string, own: boolean): ErrorMeaning | null => {
  if (isContentFreeName(name)) return null;
  const bare = bareName(name);
  const grpc = normaliseGrpcCode(bare);
  // A canonical UPPER_SNAKE status ("status": "INVALID_ARGUMENT" in a Google body) is gRPC's word.
  if (grpc && grpc === bare) return grpcMeaning(grpc);
  const provider = providerMeaning(name);
  if (provider) return provider;
  if (grpc && /^[A-Z][a-zA-Z]+$/.test(bare)) return grpcMeaning(grpc);
  return own && isKnownErrno(name) ? errnoMeaning(name) : null;
};

// Reasons read from the client's own view (socket errors, exception names, phrases): when the server
// is known to have replied, they cannot prove the request was never sent.
const CLIENT_SIDE = /^(?:errno|provider|message|exception|mysql):/;

/**
 * Reads every signal in a raw error and ranks them, most specific first:
 *  1. the error's own exact name (provider tables, gRPC names, errno codes, MySQL symbols/numbers);
 *  2. rate-limit headers on a 403/429 (GitHub: a 403 with x-ratelimit-remaining: 0 is not a denial);
 *  3. an exact SQLSTATE; 4. the gRPC status; 5. the JSON-RPC code;
 *  6. codes in the reply body (error.code, googleapis reason, Slack's error, S3's <Code>…), which
 *     refine the transport status but sit below protocol codes, whose payloads they may only detail;
 *  7. the HTTP status (with Retry-After and WWW-Authenticate); 8. name families ("…NotFound");
 *  9. errno (field, or Node's message format with its syscall); 10. the SQLSTATE class;
 *  11. JavaScript exception names; 12. phrases in the message (message-text.ts).
 * The first candidate that is not a catch-all wins. Catch-alls (HTTP 400/500, SQLSTATE class,
 * invalid_request_error…) win only when no specific candidate exists, and a specific phrase in the
 * message may refine their class, never their effect: a 500 that says "not found" was still a 500.
 */
export function interpretError(error: RawError): Interpretation {
  const text = error.message;
  const codes = messageCodes(text);
  const httpStatus = error.httpStatus ?? codes.httpStatus;
  const sqlState = error.sqlState ?? codes.sqlState;
  const grpc: GrpcName | null =
    (error.grpcCode !== null ? normaliseGrpcCode(error.grpcCode) : null) ??
    (codes.grpcName ? normaliseGrpcCode(codes.grpcName) : null);
  const jsonRpc = error.jsonRpcCode ?? codes.jsonRpcCode;
  const errnoField = error.errno?.trim() || null;

  const ownNames = compact([
    error.name,
    errnoField && !isKnownErrno(errnoField) && !/^\d+$/.test(errnoField) ? errnoField : null,
    ...codes.outerNames,
  ]);
  const names = [...ownNames, ...codes.bodyNames];
  const mysqlNumbers = [
    ...(errnoField && /^\d{4}$/.test(errnoField) ? [Number(errnoField)] : []),
    ...codes.mysqlNumbers,
  ];
  const syscallOf = (code: string): string | null => codes.errnoTokens.find((t) => t.code === code)?.syscall ?? null;
  const errnos = compact([
    errnoField && isKnownErrno(errnoField) ? errnoField : null,
    ...codes.errnoTokens.map((t) => t.code).filter(isKnownErrno),
  ]);

  const candidates = compact<ErrorMeaning>([
    ...ownNames.map((n) => exactNameMeaning(n, true)),
    ...mysqlNumbers.map(mysqlNumberMeaning),
    rateLimitMeaning(httpStatus, error.headers, text),
    sqlState ? sqlStateMeaning(sqlState) : null,
    grpc ? grpcMeaning(grpc) : null,
    jsonRpc !== null ? jsonRpcMeaning(jsonRpc) : null,
    ...codes.bodyNames.map((n) => exactNameMeaning(n, false)),
    httpStatus !== null ? httpStatusMeaning(httpStatus, error.headers) : null,
    // Families only guess at names no table knows: a known catch-all stays a catch-all.
    ...names
      .filter((n) => !isContentFreeName(n) && exactNameMeaning(n, true) === null)
      .map((n) => nameFamilyMeaning(bareName(n))),
    ...errnos.map((code) => errnoMeaning(code, syscallOf(code))),
    sqlState ? sqlStateClassMeaning(sqlState) : null,
    error.name ? exceptionNameMeaning(error.name, text) : null,
  ]);

  const chosen = choose(candidates, messageMeaning(text));
  // A request that provably never left makes an otherwise indeterminate failure harmless — but only
  // when nothing shows the server answered: a 500 whose body says "connect ECONNREFUSED" is the
  // server's own upstream failing, not ours.
  const replied =
    httpStatus !== null ||
    jsonRpc !== null ||
    // A body naming a server-side code; a serialised Node error ({"code":"ECONNREFUSED"}) is ours.
    codes.bodyNames.some((n) => !isKnownErrno(n) && !isContentFreeName(n)) ||
    // Class 08 and the connect-phase codes are raised by the client side; HY000 is the CLI catch-all
    // MySQL clients use for their own failures.
    (sqlState !== null &&
      !sqlState.startsWith('08') &&
      !CONNECT_PHASE_SQLSTATES.has(sqlState) &&
      sqlState !== 'HY000') ||
    (grpc !== null && grpc !== 'UNAVAILABLE');
  if (replied && chosen.effect === 'not_sent' && CLIENT_SIDE.test(chosen.reason)) {
    return { meaning: { ...chosen, effect: 'indeterminate', note: 'reply_contradicts_not_sent' }, candidates };
  }
  const proof = replied ? null : notSentProof(candidates, text);
  const meaning =
    chosen.effect === 'indeterminate' && proof !== null
      ? { ...chosen, effect: 'not_sent' as const, note: proof }
      : chosen;
  return { meaning, candidates };
}

function choose(candidates: readonly ErrorMeaning[], fromMessage: ErrorMeaning | null): ErrorMeaning {
  const specific = candidates.find((c) => !c.generic);
  if (specific) return specific;
  const catchAll = candidates[0];
  if (catchAll && fromMessage) {
    if (fromMessage.failureClass === catchAll.failureClass) {
      return { ...catchAll, duplicateOnRetry: catchAll.duplicateOnRetry || fromMessage.duplicateOnRetry };
    }
    return { ...fromMessage, effect: catchAll.effect, generic: true, note: `refines:${catchAll.reason}` };
  }
  if (catchAll) return catchAll;
  if (fromMessage) return fromMessage;
  // Nothing recognisable: assume the worst about the effect; the class allows a bounded retry.
  return meaningOf(transient('indeterminate', { generic: true }), 'unrecognized_error');
}

function notSentProof(candidates: readonly ErrorMeaning[], text: string | null): string | null {
  const proven = candidates.find((c) => c.effect === 'not_sent');
  if (proven) return proven.note ?? proven.reason;
  const phrase = messageMeaning(text);
  return phrase?.effect === 'not_sent' ? phrase.reason : null;
}
