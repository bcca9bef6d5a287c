/**
 * Structured codes that producers leave inside free text: a provider's JSON (or Python-repr) error
 * body, an XML <Code>, and the fixed formats client libraries print ("connect ECONNREFUSED
 * 10.0.0.1:443", "14 UNAVAILABLE: …", "rpc error: code = Unavailable desc = …", "(SQLSTATE 23505)",
 * "Error 1062 (23000): …", "An error occurred (ThrottlingException) when calling …",
 * "Request failed with status code 503", "MCP error -32602: …"). Extracted by exact format, never
 * by guessing at words.
 */
export interface MessageCodes {
  /** The outer error's own name in a library format (boto3's "An error occurred (X) when calling"). */
  readonly outerNames: readonly string[];
  /** Error names from a body (most specific key first), XML <Code> and MySQL symbols. */
  readonly bodyNames: readonly string[];
  readonly httpStatus: number | null;
  readonly sqlState: string | null;
  readonly grpcName: string | null;
  readonly jsonRpcCode: number | null;
  readonly mysqlNumbers: readonly number[];
  /** errno-like tokens with the syscall that preceded them, in order of appearance. */
  readonly errnoTokens: ReadonlyArray<{ readonly code: string; readonly syscall: string | null }>;
}

// Keys in order of specificity: Anthropic's details.error_code, code, googleapis reason, AWS __type,
// then the coarser type/status/error (Slack's {"ok":false,"error":"…"}).
const BODY_KEYS = ['error_code', 'code', 'reason', '__type', 'Code', 'type', 'status', 'error', 'codeName'];

const STRING_VALUE = new Map(
  BODY_KEYS.map((k) => [k, new RegExp(`["']${k}["']\\s*:\\s*["']([^"'\\n]{1,128})["']`, 'g')]),
);
const NUMBER_VALUE = new Map(
  ['code', 'status'].map((k) => [k, new RegExp(`["']${k}["']\\s*:\\s*(-?\\d{1,6})\\b`, 'g')]),
);

const valuesOf = (text: string, pattern: RegExp | undefined): string[] =>
  pattern ? [...text.matchAll(pattern)].map((m) => m[1] ?? '') : [];
const stringValues = (text: string, key: string): string[] => valuesOf(text, STRING_VALUE.get(key));
const numberValues = (text: string, key: string): number[] => valuesOf(text, NUMBER_VALUE.get(key)).map(Number);

const first = (text: string, pattern: RegExp): string | null => pattern.exec(text)?.[1] ?? null;

// A PostgreSQL SQLSTATE: five characters, a digit-led class or one of the lettered classes.
const SQLSTATE_SHAPE = /^(?:[0-9][0-9A-Z]|F0|HV|P0|XX)[0-9A-Z]{3}$/;

export function messageCodes(text: string | null): MessageCodes {
  if (!text) {
    return {
      outerNames: [],
      bodyNames: [],
      httpStatus: null,
      sqlState: null,
      grpcName: null,
      jsonRpcCode: null,
      mysqlNumbers: [],
      errnoTokens: [],
    };
  }
  const bodyNames = BODY_KEYS.flatMap((k) => stringValues(text, k));
  const xmlCodes = [...text.matchAll(/<Code>([^<]{1,128})<\/Code>/g)].map((m) => m[1] ?? '');
  const numericCodes = [...numberValues(text, 'code'), ...numberValues(text, 'status')];
  const awsCli = first(text, /An error occurred \(([A-Za-z0-9_.:]+)\) when calling/);
  // Redis replies start with an upper-case error prefix ("NOAUTH Authentication required.").
  const leadingWord = first(text, /^(?:ReplyError: )?([A-Z]{2,12}) /);
  const mysqlSymbols = [...text.matchAll(/\b((?:ER|CR)_[A-Z0-9_]{3,})\b/g)].map((m) => m[1] ?? '');
  const mysqlNumbers = [...text.matchAll(/\b(?:Error|ERROR) (\d{4})(?: \(([0-9A-Z]{5})\))?/g)].map((m) => Number(m[1]));

  const httpFromBody = numericCodes.find((n) => n >= 100 && n <= 599) ?? null;
  const httpFromText = first(
    text,
    /\b(?:status code|status|HTTP(?:\/\d(?:\.\d)?)?|HTTP Error|Error code:)\s*[:=]?\s*([1-5]\d\d)\b/i,
  );
  const jsonRpcFromBody = numericCodes.find((n) => n <= -32000 && n >= -32768) ?? null;
  const jsonRpcFromText = first(text, /\bMCP error (-\d{5})\b/);

  const errnoTokens = [
    ...text.matchAll(
      /(?:\b([a-z][A-Za-z]*) )?\b((?:E[A-Z][A-Z0-9_]+)|(?:UND_ERR_[A-Z_]+)|(?:ERR_[A-Z0-9_]+)|(?:CERT_[A-Z_]+)|(?:[A-Z_]+_CERT[A-Z_]*)|(?:UNABLE_TO_[A-Z_]+))\b/g,
    ),
  ].map((m) => ({ code: m[2] ?? '', syscall: m[1] ?? null }));

  return {
    outerNames: [...(awsCli ? [awsCli] : []), ...(leadingWord ? [leadingWord] : [])],
    bodyNames: [...new Set([...bodyNames, ...xmlCodes, ...mysqlSymbols])].filter((n) => n.length > 0),
    httpStatus: httpFromBody ?? (httpFromText ? Number(httpFromText) : null),
    sqlState:
      first(text, /\bSQLSTATE\s*[[=:(]?\s*([0-9A-Z]{5})\b/i) ??
      first(text, /\b(?:Error|ERROR) \d{4} \(([0-9A-Z]{5})\)/) ??
      // PostgREST/Supabase put the SQLSTATE in the body's "code".
      stringValues(text, 'code').find((c) => SQLSTATE_SHAPE.test(c)) ??
      null,
    grpcName:
      first(text, /^\s*(?:Error: )?\d{1,2} ([A-Z_]+): /) ??
      first(text, /\brpc error: code = ([A-Za-z]+)/) ??
      first(text, /\bStatusCode\.([A-Z_]+)\b/),
    jsonRpcCode: jsonRpcFromBody ?? (jsonRpcFromText ? Number(jsonRpcFromText) : null),
    mysqlNumbers,
    errnoTokens,
  };
}
