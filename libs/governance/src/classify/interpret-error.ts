import type { RawError } from '@tokencircuit/contracts';
import { meaningOf, transient, type ErrorMeaning } from './error-meaning.js';
import { errnoMeaning, isKnownErrno } from './errno.js';
import { grpcMeaning, normaliseGrpcCode, type GrpcName } from './grpc-status.js';
import { httpStatusMeaning, rateLimitMeaning } from './http-status.js';
import { jsonRpcMeaning } from './json-rpc.js';
import { messageCodes, type MessageCodes } from './message-codes.js';
import { messageMeaning, notSentPhrase, outputContractBroken } from './message-text.js';
import { exceptionNameMeaning, nameFamilyMeaning } from './name-families.js';
import { mailResponseMeaning } from './mail-response.js';
import {
  bareName,
  isContentFreeName,
  mysqlNumberMeaning,
  providerCodeInText,
  providerMeaning,
} from './provider-codes.js';
import { ftpReplyMeaning } from './ftp-reply.js';
import { neo4jStatusMeaning } from './neo4j-status.js';
import { amqpNameMeaning } from './provider-amqp.js';
import {
  dialectCodeMeaning,
  ldapNumberMeaning,
  oracleMeaning,
  sqlServerNumberMeaning,
  type Dialect,
} from './provider-dialect.js';
import { providerCodesIn, scopedCodeInText, scopedProviderMeaning } from './provider-scoped.js';
import { proxyReplyMeaning } from './proxy-reply.js';
import { smtpReplyMeaning } from './smtp-reply.js';
import { CONNECT_PHASE_SQLSTATES, sqlStateClassMeaning, sqlStateMeaning } from './sqlstate.js';

/** interpretError's answer: the winning meaning, its effect already corrected by dispatch proofs. */
export interface Interpretation {
  readonly meaning: ErrorMeaning;
  /** Every candidate in precedence order, for tests and for the curious. */
  readonly candidates: readonly ErrorMeaning[];
}

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
 *  0. a text saying the tool's own answer broke its declared output schema (the codes it quotes are the answer's);
 *  1. the error's own exact name (the declared provider's scoped table first, then every provider table, gRPC
 *     names, errno codes, MySQL symbols/numbers);
 *  2. rate-limit headers on a 403/429 (GitHub: a 403 with x-ratelimit-remaining: 0 is not a denial);
 *  3. an exact SQLSTATE; 4. the gRPC status; 5. the JSON-RPC code;
 *     SMTP replies (RFC 5321 code with its RFC 3463 enhanced code), IMAP/POP3 response codes and ORA- codes in the
 *     text, and the MySQL and SQL Server numbers whose message templates the text holds;
 *  6. codes in the reply body (error.code, googleapis reason, Slack's error, S3's <Code>…) and the declared
 *     provider's snake_case codes named in the text, which refine the transport status but sit below
 *     protocol codes, whose payloads they may only detail;
 *  7. the HTTP status (with Retry-After and WWW-Authenticate); 8. name families ("…NotFound");
 *  9. errno (field, or Node's message format with its syscall); 10. the SQLSTATE class;
 *  11. JavaScript exception names; 12. phrases in the message (message-text.ts).
 * The first candidate that is not a catch-all wins. Catch-alls (HTTP 400/500, SQLSTATE class,
 * invalid_request_error…) win only when no specific candidate exists, and a specific phrase in the
 * message may refine their class, never their effect: a 500 that says "not found" was still a 500.
 */
export function interpretError(
  error: RawError,
  dialect: Dialect | null = null,
  provider: string | null = null,
): Interpretation {
  const text = error.message;
  const codes = messageCodes(text);
  const httpStatus = error.httpStatus ?? codes.httpStatus;
  const sqlState = error.sqlState ?? codes.sqlState;
  const grpc: GrpcName | null =
    (error.grpcCode !== null ? normaliseGrpcCode(error.grpcCode) : null) ??
    (codes.grpcName ? normaliseGrpcCode(codes.grpcName) : null);
  const jsonRpc = error.jsonRpcCode ?? codes.jsonRpcCode;
  const errnoField = error.errno?.trim() || null;
  const errnoKnown = errnoField !== null && isKnownErrno(errnoField);

  // Built by pushing in precedence order: most errors have no name and no code in their text, and
  // the spread-and-compact form allocated a dozen arrays for them.
  const ownNames: string[] = [];
  if (error.name !== null) ownNames.push(error.name);
  if (errnoField && !errnoKnown && !DIGITS.test(errnoField)) ownNames.push(errnoField);
  ownNames.push(...codes.outerNames);

  const candidates: ErrorMeaning[] = [];
  add(candidates, outputContractBroken(text));
  // v2: the provider's own code, read in its dialect, then the error's names, then the body's
  // structured sub-codes and reasons (google.rpc ErrorInfo, Stripe decline_code): all outrank statuses.
  const code = error.code?.trim() || null;
  // A provider whose codes are words or numbers only its own table reads (provider-scoped.ts) is read there first.
  if (code !== null) add(candidates, scopedProviderMeaning(provider, code) ?? dialectCodeMeaning(dialect, code));
  // The error's own names too: a bare name two providers use means what the declared one documents (the Cassandra
  // Python driver's "Unavailable" is not AWS's).
  for (const n of ownNames)
    add(candidates, (isContentFreeName(n) ? null : scopedProviderMeaning(provider, n)) ?? exactNameMeaning(n, true));
  for (const d of error.details ?? []) {
    if (d.code !== null)
      add(
        candidates,
        scopedProviderMeaning(provider, d.code) ??
          dialectCodeMeaning(dialect, d.code) ??
          exactNameMeaning(d.code, false),
      );
    if (d.reason !== null)
      add(candidates, scopedProviderMeaning(provider, d.reason) ?? exactNameMeaning(d.reason, false));
  }
  for (const reply of codes.smtpReplies) add(candidates, smtpReplyMeaning(reply));
  if (code !== null && code.startsWith('Neo.')) add(candidates, neo4jStatusMeaning(code));
  else if (text !== null && text.includes('Neo.')) add(candidates, neo4jStatusMeaning(text));
  for (const n of codes.ldapNumbers) add(candidates, ldapNumberMeaning(n));
  for (const name of codes.amqpNames) add(candidates, amqpNameMeaning(name));
  for (const code of codes.mailCodes) add(candidates, mailResponseMeaning(code));
  if ((dialect === 'ftp' || (error.name !== null && FTPLIB_ERROR.test(error.name))) && text !== null) {
    const lead = FTP_LEAD.exec(text);
    if (lead) add(candidates, ftpReplyMeaning(Number(lead[1])));
  }
  if (dialect === 'smtp' && text !== null) {
    const lead = SMTP_LEAD.exec(text);
    if (lead) add(candidates, smtpReplyMeaning({ code: Number(lead[1]), enhanced: lead[2] ?? null }));
  }
  if (text !== null && text.includes('ORA-')) {
    const ora = /\bORA-\d{5}\b/.exec(text);
    if (ora) add(candidates, oracleMeaning(ora[0]));
  }
  if (dialect === 'redis' && text !== null) {
    const prefix = /^-?([A-Z]{2,})\b/.exec(text);
    if (prefix) add(candidates, exactNameMeaning(prefix[1]!, true));
  }
  if (errnoField && FOUR_DIGITS.test(errnoField)) add(candidates, mysqlNumberMeaning(Number(errnoField)));
  for (const n of codes.mysqlNumbers) add(candidates, mysqlNumberMeaning(n));
  for (const n of codes.sqlServerNumbers) add(candidates, sqlServerNumberMeaning(n));
  add(candidates, rateLimitMeaning(httpStatus, error.headers, text));
  if (sqlState) add(candidates, sqlStateMeaning(sqlState));
  if (grpc) add(candidates, grpcMeaning(grpc));
  if (jsonRpc !== null) add(candidates, jsonRpcMeaning(jsonRpc));
  for (const n of codes.bodyNames) add(candidates, scopedProviderMeaning(provider, n) ?? exactNameMeaning(n, false));
  // kubectl's "Error from server (Expired)", discord.js's "DiscordAPIError[50001]", a body's numeric "code": read
  // only in the declared provider's scoped table.
  if (provider !== null) for (const c of providerCodesIn(text)) add(candidates, scopedProviderMeaning(provider, c));
  // The declared provider's own code, named in the text the way its SDK words an error (step 6, like a body's).
  const codeInText = scopedCodeInText(provider, text) ?? providerCodeInText(provider, text);
  add(candidates, codeInText);
  // A proxy's own reply saying whether it forwarded the request refines its status (Envoy's 503 texts).
  if (httpStatus === 503) add(candidates, proxyReplyMeaning(httpStatus, text));
  if (httpStatus !== null) add(candidates, httpStatusMeaning(httpStatus, error.headers));
  // Families only guess at names no table knows: a known catch-all stays a catch-all.
  for (const n of ownNames) add(candidates, familyMeaning(n));
  for (const n of codes.bodyNames) add(candidates, familyMeaning(n));
  if (errnoKnown) add(candidates, errnoMeaning(errnoField, syscallOf(codes, errnoField)));
  for (const t of codes.errnoTokens)
    if (isKnownErrno(t.code)) add(candidates, errnoMeaning(t.code, syscallOf(codes, t.code)));
  if (sqlState) add(candidates, sqlStateClassMeaning(sqlState));
  if (error.name) add(candidates, exceptionNameMeaning(error.name, text));

  // The phrase table is read at most once, and only when no specific code decided (most errors
  // carry one); undefined = not read.
  const specific = candidates.find((c) => !c.generic);
  const phrase = specific ? undefined : messageMeaning(text);
  const chosen = specific ?? fallback(candidates[0] ?? null, phrase ?? null);
  // A request that provably never left makes an otherwise indeterminate failure harmless — but only
  // when nothing shows the server answered: a 500 whose body says "connect ECONNREFUSED" is the
  // server's own upstream failing, not ours.
  const replied =
    httpStatus !== null ||
    (code !== null && dialect !== null && dialect !== 'errno' && candidates[0]?.effect !== 'not_sent') ||
    jsonRpc !== null ||
    codes.smtpReplies.length > 0 ||
    codes.ldapNumbers.length > 0 ||
    codes.mailCodes.some((code) => mailResponseMeaning(code) !== null) ||
    // RabbitMQ's reply text only counts when it names an AMQP constant ("SOME_WORD - " is common prose).
    codes.amqpNames.some((name) => amqpNameMeaning(name) !== null) ||
    // A body naming a server-side code; a serialised Node error ({"code":"ECONNREFUSED"}) is ours.
    codes.bodyNames.some((n) => !isKnownErrno(n) && !isContentFreeName(n)) ||
    codeInText !== null ||
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
  // Only an indeterminate effect can be improved by a proof, so the proof is only looked for then.
  const proof =
    replied || chosen.effect !== 'indeterminate'
      ? null
      : (candidateProof(candidates) ?? phraseProof(phrase === undefined ? notSentPhrase(text) : phrase));
  const meaning = proof !== null ? { ...chosen, effect: 'not_sent' as const, note: proof } : chosen;
  return { meaning, candidates };
}

const DIGITS = /^\d+$/;
// Python ftplib's exceptions carry the server's reply as their text ("550 Failed to open file.").
const FTPLIB_ERROR = /^(?:ftplib\.)?error_(?:perm|temp|reply)$/;
const FTP_LEAD = /^\s*([45]\d\d)(?:[ -]|$)/;
// A reply at the head of an smtp-dialect message: "550 Requested action not taken", "421-4.7.0 Try later".
const SMTP_LEAD = /^\s*([45]\d\d)(?:[ -]([45]\.\d{1,3}\.\d{1,3}))?(?:[ -]|$)/;
const FOUR_DIGITS = /^\d{4}$/;

const add = (candidates: ErrorMeaning[], c: ErrorMeaning | null): void => {
  if (c !== null) candidates.push(c);
};

/** A naming-family guess for a name no exact table knows (and that is not a content-free wrapper). */
const familyMeaning = (name: string): ErrorMeaning | null =>
  isContentFreeName(name) || exactNameMeaning(name, true) !== null ? null : nameFamilyMeaning(bareName(name));

/** The syscall Node's message format names before `code` ("connect ECONNREFUSED …"), if any. */
const syscallOf = (codes: MessageCodes, code: string): string | null =>
  codes.errnoTokens.find((t) => t.code === code)?.syscall ?? null;

/** With no specific candidate: the first catch-all, refined by a phrase in the message if one says more. */
function fallback(catchAll: ErrorMeaning | null, fromMessage: ErrorMeaning | null): ErrorMeaning {
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

function candidateProof(candidates: readonly ErrorMeaning[]): string | null {
  const proven = candidates.find((c) => c.effect === 'not_sent');
  return proven ? (proven.note ?? proven.reason) : null;
}

const phraseProof = (phrase: ErrorMeaning | null): string | null =>
  phrase?.effect === 'not_sent' ? phrase.reason : null;
