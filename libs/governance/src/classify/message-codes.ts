import {
  FIXED_TEXT,
  FIXED_TEXT_WORDS,
  FIXED_TEXTS,
  MYSQL_TEMPLATE_WORDS,
  MYSQL_TEMPLATES,
  POSTGRES_TEXT,
  POSTGRES_TEXT_WORDS,
  POSTGRES_TEXTS,
  SQLSERVER_TEMPLATE_WORDS,
  SQLSERVER_TEMPLATES,
  STRERROR,
  STRERROR_TEXT,
} from './fixed-texts.js';
import { memoiseByText } from '../support/text-memo.js';
import { CASSANDRA_ERROR_CODES } from './provider-cassandra.js';
import type { SmtpReply } from './smtp-reply.js';

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
  /** SQL Server error numbers whose message template the text holds (SQLSERVER_TEMPLATES). */
  readonly sqlServerNumbers: readonly number[];
  /** errno-like tokens with the syscall that preceded them, in order of appearance. */
  readonly errnoTokens: ReadonlyArray<{ readonly code: string; readonly syscall: string | null }>;
  /** SMTP replies that carry an enhanced status code ("550 5.1.1 …", smtplib's "(535, b'5.7.8 …')"). */
  readonly smtpReplies: readonly SmtpReply[];
  /** LDAP result codes (RFC 4511) in the formats of JNDI and python-ldap. */
  readonly ldapNumbers: readonly number[];
  /** AMQP 0-9-1 constants in amqplib's "404 (NOT-FOUND)" and RabbitMQ's "NOT_FOUND - …" reply text. */
  readonly amqpNames: readonly string[];
  /** IMAP response codes of a NO/BAD and POP3 extended codes of an -ERR ("NO [OVERQUOTA] …", "-ERR [IN-USE] …"). */
  readonly mailCodes: readonly string[];
}

// Keys in order of specificity: Anthropic's details.error_code, Salesforce's errorCode, code, googleapis reason, AWS __type,
// then the coarser type/status/error (Slack's {"ok":false,"error":"…"}).
const BODY_KEYS = [
  'error_code',
  'errorCode',
  'code',
  'reason',
  '__type',
  'Code',
  'type',
  'status',
  'error',
  'codeName',
];

const STRING_VALUE = new Map(
  BODY_KEYS.map((k) => [k, new RegExp(`["']${k}["']\\s*:\\s*["']([^"'\\n]{1,128})["']`, 'g')]),
);
const NUMBER_VALUE = new Map(
  ['code', 'status'].map((k) => [k, new RegExp(`["']${k}["']\\s*:\\s*(-?\\d{1,6})\\b`, 'g')]),
);

/**
 * Every capture of a global pattern, in order. An exec loop rather than matchAll: matchAll clones
 * the RegExp on every call, which cost more than the scan itself on short error texts.
 */
function captures(text: string, pattern: RegExp, out: string[] = []): string[] {
  pattern.lastIndex = 0;
  for (let m = pattern.exec(text); m !== null; m = pattern.exec(text)) {
    out.push(m[1] ?? '');
    if (m[0].length === 0) pattern.lastIndex += 1;
  }
  return out;
}

// Every pattern below is guarded by a literal it cannot match without (a plain indexOf), so the
// common short message ("upstream unavailable") is answered without running the regexes at all.
const stringValues = (text: string, key: string, out?: string[]): string[] =>
  text.includes(key) ? captures(text, STRING_VALUE.get(key)!, out) : (out ?? []);
const numberValues = (text: string, key: string, out: number[]): void => {
  if (text.includes(key)) for (const v of captures(text, NUMBER_VALUE.get(key)!)) out.push(Number(v));
};

const first = (text: string, pattern: RegExp): string | null => pattern.exec(text)?.[1] ?? null;

// A PostgreSQL SQLSTATE: five characters, a digit-led class or one of the lettered classes.
const SQLSTATE_SHAPE = /^(?:[0-9][0-9A-Z]|F0|HV|P0|XX)[0-9A-Z]{3}$/;

const DROPBOX_SUMMARY = /["']error_summary["']\s*:\s*["']([^"'\n]{1,256})["']/g;
const XML_CODE = /<Code>([^<]{1,128})<\/Code>/g;
const AWS_CLI = /An error occurred \(([A-Za-z0-9_.:]+)\) when calling/;
// The AWS SDK for Go v2 (smithy-go) wraps a service error as "https response error StatusCode: 409, RequestID: …,
// [HostID: …, ]api error Code: message" (or "Code: message" for a modelled error type); Terraform's AWS provider
// prints it unchanged.
const AWS_GO_V2 =
  /\bhttps response error StatusCode: ([1-5]\d\d), RequestID: [^,\n]*, (?:HostID: [^,\n]*, )?(?:api error )?([A-Za-z][A-Za-z0-9_.]*):/;
// azure-core's HttpResponseError (the Azure CLI and SDKs for Python): "(Code) message\nCode: Code\nMessage: …", the
// CLI putting "ERROR: " before it.
const AZURE_CORE = /^(?:ERROR: )?\(([A-Z][A-Za-z0-9]+)\) |\nCode: ([A-Z][A-Za-z0-9]+)\s*\nMessage: /;
// Terraform's azurerm provider prints the ARM code in the Go SDKs' formats: go-azure-sdk's "unexpected status 409 (409
// Conflict) with error: ScopeLocked: …" and autorest's "Service returned an error. Status=403 Code=\"AuthorizationFailed\"".
const AZURE_GO =
  /\bunexpected status [1-5]\d\d \([^)\n]{0,60}\) with error: ([A-Z][A-Za-z0-9]+): |\bService returned an error\. Status=[1-5]\d\d Code="([A-Z][A-Za-z0-9]+)"/;
// Redis replies start with an upper-case error prefix ("NOAUTH Authentication required.").
const LEADING_WORD = /^(?:ReplyError: )?([A-Z]{2,12}) /;
const MYSQL_SYMBOL = /\b((?:ER|CR)_[A-Z0-9_]{3,})\b/g;
const MYSQL_NUMBER = /\b(?:Error|ERROR) (\d{4})(?: \(([0-9A-Z]{5})\))?/g;
const MYSQL_SQLSTATE = /\b(?:Error|ERROR) \d{4} \(([0-9A-Z]{5})\)/;
const HTTP_IN_TEXT = /\b(?:status code|status|HTTP(?:\/\d(?:\.\d)?)?|HTTP Error|Error code:)\s*[:=]?\s*([1-5]\d\d)\b/i;
const MCP_CODE = /\bMCP error (-\d{5})\b/;
const ERRNO_TOKEN =
  /(?:\b([a-z][A-Za-z]*) )?\b((?:E[A-Z][A-Z0-9_]+)|(?:UND_ERR_[A-Z_]+)|(?:ERR_[A-Z0-9_]+)|(?:CERT_[A-Z_]+)|(?:[A-Z_]+_CERT[A-Z_]*)|(?:UNABLE_TO_[A-Z_]+))\b/g;
// Every errno alternative above holds two adjacent capitals (EC…, UN…, ER…, CE…).
const TWO_CAPITALS = /[A-Z]{2}/;
const SQLSTATE_IN_TEXT = /\bSQLSTATE\s*[[=:(]?\s*([0-9A-Z]{5})\b/i;
const GRPC_NODE = /^\s*(?:Error: )?\d{1,2} ([A-Z_]+): /;
const GRPC_GO = /\brpc error: code = ([A-Za-z]+)/;
const GRPC_PYTHON = /\bStatusCode\.([A-Z_]+)\b/;
// gcloud prints an API error's google.rpc status name after the command: "ERROR: (gcloud.run.deploy) PERMISSION_DENIED: …".
const GRPC_GCLOUD = /^\s*ERROR: \(gcloud\.[\w.-]+\) ([A-Z]+(?:_[A-Z]+)*): /;

// An SMTP reply with its RFC 3463 enhanced code: self-identifying, as the code's class repeats the reply's
// first digit. Without the enhanced code a three-digit number is read only in the smtp dialect.
const SMTP_ENHANCED = /\b([45]\d\d)[ -]([45]\.\d{1,3}\.\d{1,3})\b/g;
// Python smtplib's exceptions print (code, b'enhanced text') or {'rcpt': (code, b'…')}: the reply is bytes,
// which tells it from other libraries' (code, 'text') tuples (pika's AMQP replies).
const SMTPLIB_TUPLE = /\((\d{3}), b['"]([45]\.\d{1,3}\.\d{1,3})?/g;
// RabbitMQ's reply text starts with the AMQP constant ("NOT_FOUND - no queue 'jobs' in vhost '/'");
// amqplib prints the code with the constant's spec spelling ("404 (NOT-FOUND)").
const RABBIT_REPLY_TEXT = /(?:^|["'(\s])([A-Z]{2,}(?:_[A-Z]+)+) - /g;
const AMQPLIB_REPLY = /\b[1-5]\d\d \(([A-Z]+(?:-[A-Z]+)+)\)/g;
// DNS response codes as resolvers and dig print them.
const DNS_RCODE = /\b(NXDOMAIN|SERVFAIL|FORMERR|NOTIMP)\b/g;
const LDAP_JNDI = /\bLDAP: error code (\d{1,3})\b/;
// go-ldap's Error(): 'LDAP Result Code 49 "Invalid Credentials": …'; ldap3's result exceptions:
// "LDAPEntryAlreadyExistsResult - 68 - entryAlreadyExists - …".
const LDAP_GO = /\bLDAP Result Code (\d{1,3}) "/;
const LDAP3_RESULT = /\bLDAP[A-Za-z]+Result - (\d{1,3}) - [a-zA-Z]+ - /;
const LDAP_PYTHON = /["']result["']\s*:\s*(\d{1,3})\s*,[^}]*["']desc["']/;
// What either SMTP form needs, tested once before both global patterns run.
const SMTP_HINT = /\b[45]\d\d[ -][45]\.\d|\(\d{3}, b['"]/;
// The Cassandra Python driver's message for a server error: "Error from server: code=1000 [Unavailable exception] …", the
// native protocol's error code in hexadecimal.
const CASSANDRA_PY = /\bError from server: code=([0-9a-fA-F]{4}) \[/;
// ClickHouse's exception text: "Code: 60. DB::Exception: Table default.x does not exist. (UNKNOWN_TABLE) (version …)",
// the error code's name in parentheses after the message.
const CLICKHOUSE_EXCEPTION = /\bCode: \d{1,4}\. DB::Exception: [^\n]*?\(([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)\)/;
// DynamoDB's TransactionCanceledException lists one cancellation reason code per action, "None" for the actions that
// did not fail: "Transaction cancelled, please refer cancellation reasons for specific reasons [None, ConditionalCheckFailed]".
const DYNAMODB_CANCELLATION = /\bcancellation reasons for specific reasons \[([A-Za-z, ]{1,400})\]/;
// An IMAP response code after a (tagged) NO or BAD, a POP3 extended code after -ERR.
const MAIL_RESPONSE = /(?:^|[\s"'])(?:NO|BAD|-ERR) \[([A-Z][A-Z0-9/-]*)[\] ]/;
// SQLite result code names ("SQLITE_BUSY: database is locked", node-sqlite3's format).
const SQLITE_NAME = /\b(SQLITE_[A-Z_]+)\b/g;

const NONE: readonly never[] = Object.freeze([]);
const NO_CODES: MessageCodes = Object.freeze({
  outerNames: NONE,
  bodyNames: NONE,
  httpStatus: null,
  sqlState: null,
  grpcName: null,
  jsonRpcCode: null,
  mysqlNumbers: NONE,
  sqlServerNumbers: NONE,
  errnoTokens: NONE,
  smtpReplies: NONE,
  ldapNumbers: NONE,
  amqpNames: NONE,
  mailCodes: NONE,
});

/**
 * Whether `text` can hold any code at all. Every pattern below needs one of: a quote or "<" (bodies,
 * XML), a digit (HTTP, MySQL, MCP and gRPC numbers), two adjacent capitals (errno and Redis words,
 * ER_/CR_ symbols, SQLSTATEs without a digit), or one of the literal phrases; the SQLSTATE label is
 * matched case-insensitively, so it gets its own check. Plain lower-case messages ("upstream
 * unavailable", "not found") are common and skip every pattern.
 */
export const mayHoldCodes = (text: string): boolean =>
  MAY_HOLD_CODES.test(text) || SQLSTATE_LABEL.test(text) || mayHoldFixedText(text);
// A fixed text may be plain words: "database is locked" alone is a code (FIXED_TEXTS).
const mayHoldFixedText = (text: string): boolean =>
  (FIXED_TEXT_WORDS.some((word) => text.includes(word)) && FIXED_TEXT.test(text)) ||
  (text.includes(': ') && STRERROR_TEXT.test(text)) ||
  (POSTGRES_TEXT_WORDS.some((word) => text.includes(word)) && POSTGRES_TEXT.test(text)) ||
  templateNumbers(text, SQLSERVER_TEMPLATE_WORDS, SQLSERVER_TEMPLATES).length > 0 ||
  templateNumbers(text, MYSQL_TEMPLATE_WORDS, MYSQL_TEMPLATES).length > 0;
const MAY_HOLD_CODES =
  /["'<0-9]|[A-Z]{2}|An error occurred \(|rpc error: code = |StatusCode\.|^\([A-Z]|\nCode: |specific reasons \[/;
const SQLSTATE_LABEL = /sqlstate/i;

/** The SQLSTATE a PostgreSQL message template in `text` stands for (POSTGRES_TEXTS), or null. */
function postgresTextState(text: string): string | null {
  if (!POSTGRES_TEXT_WORDS.some((word) => text.includes(word))) return null;
  const template = first(text, POSTGRES_TEXT);
  return template === null ? null : (POSTGRES_TEXTS.get(template) ?? null);
}

/** The numbers whose message template `text` holds, the first template matched first (one at most). */
function templateNumbers(
  text: string,
  words: readonly string[],
  templates: ReadonlyArray<readonly [RegExp, number]>,
): readonly number[] {
  if (!words.some((word) => text.includes(word))) return NONE;
  const found = templates.find(([template]) => template.test(text));
  return found === undefined ? NONE : [found[1]];
}

export function messageCodes(text: string | null): MessageCodes {
  if (!text) return NO_CODES;
  return codesOfRepeated(text);
}

// Remembered per text (an agent's loop repeats its error message). One answer is shared by every reader of that
// text: its lists are read-only by type, and not frozen (fourteen freezes cost a new text more than the memo saves).
const codesOfRepeated = memoiseByText((text: string): MessageCodes =>
  mayHoldCodes(text) ? readCodes(text) : NO_CODES,
);

/** The codes in `text`, pattern by pattern (messageCodes without the shortcut; exported for its spec). */
export function readCodes(text: string): MessageCodes {
  // Body keys and numbers are quoted keys: without a quote none of them can be there.
  const quoted = text.includes('"') || text.includes("'");
  const names: string[] = [];
  let codeValues: readonly string[] = NONE;
  const numericCodes: number[] = [];
  if (quoted) {
    for (const key of BODY_KEYS) {
      if (key !== 'code') stringValues(text, key, names);
      else names.push(...(codeValues = stringValues(text, key)));
    }
    numberValues(text, 'code', numericCodes);
    numberValues(text, 'status', numericCodes);
  }
  if (text.includes('<Code>')) captures(text, XML_CODE, names);
  // Dropbox's error_summary lists its union tags ("path/conflict/file/.."): the innermost tag is the most specific.
  if (quoted && text.includes('error_summary')) {
    for (const summary of captures(text, DROPBOX_SUMMARY)) {
      names.push(
        ...summary
          .split('/')
          .filter((tag) => tag.length > 0 && tag !== '..' && tag !== '.')
          .reverse(),
      );
    }
  }
  const awsCli = text.includes('An error occurred (') ? first(text, AWS_CLI) : null;
  const awsGo = text.includes('https response error StatusCode: ') ? AWS_GO_V2.exec(text) : null;
  const azure = text.includes(') ') || text.includes('\nCode: ') ? AZURE_CORE.exec(text) : null;
  const azureGo = text.includes('with error: ') || text.includes(' Code="') ? AZURE_GO.exec(text) : null;
  const leadingWord = first(text, LEADING_WORD);
  if (text.includes('R_')) captures(text, MYSQL_SYMBOL, names);
  const mysqlError = text.includes('Error ') || text.includes('ERROR ');
  const mysqlNumbers = mysqlError ? captures(text, MYSQL_NUMBER).map(Number) : [];
  // MySQL's own wording without its number ("Cannot add or update a child row: …") stands for that number.
  for (const n of templateNumbers(text, MYSQL_TEMPLATE_WORDS, MYSQL_TEMPLATES))
    if (!mysqlNumbers.includes(n)) mysqlNumbers.push(n);

  const httpFromBody = numericCodes.find((n) => n >= 100 && n <= 599) ?? null;
  const httpFromText = awsGo?.[1] ?? first(text, HTTP_IN_TEXT);
  const jsonRpcFromBody = numericCodes.find((n) => n <= -32000 && n >= -32768) ?? null;
  const jsonRpcFromText = text.includes('MCP error -') ? first(text, MCP_CODE) : null;

  const errnoTokens: { code: string; syscall: string | null }[] = [];
  if (TWO_CAPITALS.test(text)) {
    ERRNO_TOKEN.lastIndex = 0;
    for (let m = ERRNO_TOKEN.exec(text); m !== null; m = ERRNO_TOKEN.exec(text)) {
      errnoTokens.push({ code: m[2] ?? '', syscall: m[1] ?? null });
    }
  }

  const outerNames: string[] = [];
  if (awsCli) outerNames.push(awsCli);
  if (awsGo) outerNames.push(awsGo[2]!);
  const azureCode = azure?.[1] ?? azure?.[2];
  if (azureCode) outerNames.push(azureCode);
  const azureGoCode = azureGo?.[1] ?? azureGo?.[2];
  if (azureGoCode) outerNames.push(azureGoCode);
  if (leadingWord) outerNames.push(leadingWord);
  if (text.includes('SQLITE_')) captures(text, SQLITE_NAME, outerNames);
  if (text.includes('Error from server: code=')) {
    const hex = first(text, CASSANDRA_PY);
    const name = hex === null ? undefined : CASSANDRA_ERROR_CODES.get(hex);
    if (name !== undefined) outerNames.push(name);
  }
  if (text.includes('DB::Exception')) {
    const name = first(text, CLICKHOUSE_EXCEPTION);
    if (name !== null) outerNames.push(name);
  }
  if (text.includes('cancellation reasons')) {
    const reasons = first(text, DYNAMODB_CANCELLATION);
    if (reasons !== null)
      for (const reason of reasons.split(','))
        if (reason.trim() !== 'None' && reason.trim() !== '') outerNames.push(reason.trim());
  }
  if (FIXED_TEXT_WORDS.some((word) => text.includes(word))) {
    const fixed = first(text, FIXED_TEXT);
    if (fixed !== null) outerNames.push(FIXED_TEXTS.get(fixed)!);
  }
  if (text.includes(': ') || text.includes('[Errno')) {
    const strerror = first(text, STRERROR_TEXT);
    if (strerror !== null) errnoTokens.push({ code: STRERROR.get(strerror.toLowerCase())!, syscall: null });
  }
  const amqpNames: string[] = [];
  if (text.includes(' (')) captures(text, AMQPLIB_REPLY, amqpNames);
  if (text.includes(' - ')) captures(text, RABBIT_REPLY_TEXT, amqpNames);
  if (TWO_CAPITALS.test(text)) captures(text, DNS_RCODE, outerNames);
  const ldapNumbers = text.includes('LDAP') || text.includes('desc') ? ldapNumbersIn(text) : NONE;
  const mailResponse = text.includes(' [') ? first(text, MAIL_RESPONSE) : null;
  const smtpReplies = SMTP_HINT.test(text) ? smtpRepliesIn(text) : NONE;
  return {
    outerNames,
    bodyNames: (names.length > 1 ? [...new Set(names)] : names).filter((n) => n.length > 0),
    httpStatus: httpFromBody ?? (httpFromText ? Number(httpFromText) : null),
    sqlState:
      first(text, SQLSTATE_IN_TEXT) ??
      (mysqlError ? first(text, MYSQL_SQLSTATE) : null) ??
      // PostgREST/Supabase put the SQLSTATE in the body's "code".
      codeValues.find((c) => SQLSTATE_SHAPE.test(c)) ??
      postgresTextState(text) ??
      null,
    grpcName:
      first(text, GRPC_NODE) ??
      (text.includes('(gcloud.') ? first(text, GRPC_GCLOUD) : null) ??
      (text.includes('rpc error: code = ') ? first(text, GRPC_GO) : null) ??
      (text.includes('StatusCode.') ? first(text, GRPC_PYTHON) : null),
    jsonRpcCode: jsonRpcFromBody ?? (jsonRpcFromText ? Number(jsonRpcFromText) : null),
    mysqlNumbers,
    sqlServerNumbers: templateNumbers(text, SQLSERVER_TEMPLATE_WORDS, SQLSERVER_TEMPLATES),
    errnoTokens,
    smtpReplies,
    ldapNumbers,
    amqpNames,
    mailCodes: mailResponse === null ? NONE : [mailResponse],
  };
}

/** LDAP result codes in JNDI's "LDAP: error code 49 - …" or python-ldap's {'result': 49, 'desc': …}. */
function ldapNumbersIn(text: string): number[] {
  const numbers: number[] = [];
  const jndi = first(text, LDAP_JNDI);
  if (jndi !== null) numbers.push(Number(jndi));
  const python = first(text, LDAP_PYTHON);
  if (python !== null) numbers.push(Number(python));
  const go = first(text, LDAP_GO);
  if (go !== null) numbers.push(Number(go));
  const ldap3 = first(text, LDAP3_RESULT);
  if (ldap3 !== null) numbers.push(Number(ldap3));
  return numbers;
}

/** SMTP replies in `text` whose enhanced code's class matches the reply code (RFC 3463 §2), in order. */
function smtpRepliesIn(text: string): SmtpReply[] {
  const replies: SmtpReply[] = [];
  for (const pattern of [SMTP_ENHANCED, SMTPLIB_TUPLE]) {
    pattern.lastIndex = 0;
    for (let m = pattern.exec(text); m !== null; m = pattern.exec(text)) {
      const code = Number(m[1]);
      const enhanced = m[2] ?? null;
      // smtplib's tuple names SMTP by its own format; a bare "550 5.1.1" only by the matching classes.
      const smtplib = pattern === SMTPLIB_TUPLE;
      if (enhanced === null ? smtplib && code >= 400 && code <= 599 : enhanced[0] === m[1]![0]) {
        replies.push({ code, enhanced });
      }
    }
  }
  return replies;
}
