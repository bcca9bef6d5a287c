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

/**
 * Naming conventions shared by whole families of error names that no table can list exhaustively:
 * EC2's "InvalidInstanceID.NotFound" / "InvalidGroup.Duplicate", "…ThrottlingException",
 * Sequelize's "SequelizeUniqueConstraintError", undici's "ConnectTimeoutError". Applied only to
 * structured names (never to free text), first match wins, so the order runs from the most to the
 * least specific family.
 */
const FAMILIES: ReadonlyArray<readonly [RegExp, Semantics]> = [
  // Case-sensitive on purpose: "GenerateLimitError" must not read as a rate limit.
  [/Connect(?:ion)?(?:Timeout|TimedOut|Refused)|CONNECTION_REFUSED/, transient('not_sent')],
  [/Throttl|TooManyRequests|RateLimit|RateExceeded|SlowDown|RATE_LIMIT|rate_limit/, transient('rejected')],
  [/QuotaExceeded|SpendLimit|Billing|QUOTA_EXCEEDED|quota_exceeded/, permission()],
  [
    /AccessDenied|Unauthori[sz]ed|Forbidden|NotAuthori[sz]ed|PermissionDenied|AuthFailure|AuthenticationFailed|ACCESS_DENIED|access_denied|UNAUTHORI[SZ]ED|FORBIDDEN/,
    permission(),
  ],
  [
    /AlreadyExists|FileExists|\.Duplicate$|^Duplicate|UniqueConstraint|DuplicateKey|ALREADY_EXISTS|already_exists/,
    invariant('rejected', { duplicateOnRetry: true }),
  ],
  [
    /(?:^|[a-z._])NotFound(?:Exception|Fault|Error)?$|(?:^|\.)NoSuch|DoesNotExist|NonExistent|NotExist|NotA?Directory|NOT_FOUND$|not_found$/,
    missingResource(),
  ],
  [/ForeignKeyConstraint|ConstraintViolation|Conflict|CONFLICT/, invariant()],
  [/Timeout|TimedOut|TIMEOUT|timeout|timed_out/, transient('indeterminate')],
  [/Overloaded|ServerBusy|OVERLOADED|overloaded/, transient('rejected')],
  [/Unavailable|UNAVAILABLE|unavailable/, transient('indeterminate')],
  [/\.Malformed$|Malformed|^Invalid|^INVALID_|^invalid_|Validation|BadRequest|Unsupported|IsADirectory/, validation()],
  [/InternalError|InternalFailure|ServerError|INTERNAL|internal_error/, transient('indeterminate', { generic: true })],
];

export function nameFamilyMeaning(name: string): ErrorMeaning | null {
  for (const [pattern, semantics] of FAMILIES) {
    if (pattern.test(name)) return meaningOf(semantics, `provider:${name}`);
  }
  return null;
}

/**
 * JavaScript's built-in exception names. TypeError and kin are programmer errors and never worth an
 * identical retry (kafkajs treats them as non-retriable) — except undici's network failure, which
 * surfaces as "TypeError: fetch failed", and JSON SyntaxErrors, which mean the reply was unreadable.
 */
export function exceptionNameMeaning(name: string, message: string | null): ErrorMeaning | null {
  const text = message ?? '';
  switch (name) {
    case 'TimeoutError':
    case 'AbortError':
      return meaningOf(transient('indeterminate'), `exception:${name}`);
    case 'TypeError':
      if (/fetch failed|network|terminated/i.test(text))
        return meaningOf(transient('indeterminate'), 'exception:fetch_failed');
      return meaningOf(validation(), 'programmer_error:TypeError');
    case 'SyntaxError':
      if (/JSON|Unexpected token|Unexpected end of/i.test(text))
        return meaningOf(transient('indeterminate'), 'response_unparseable');
      return meaningOf(validation(), 'programmer_error:SyntaxError');
    case 'RangeError':
    case 'ReferenceError':
      return meaningOf(validation(), `programmer_error:${name}`);
    default:
      return null;
  }
}
