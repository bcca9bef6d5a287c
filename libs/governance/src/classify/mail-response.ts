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

const dup = { duplicateOnRetry: true } as const;

/**
 * IMAP response codes in a tagged NO or BAD response ("a1 NO [AUTHENTICATIONFAILED] Authentication failed.") and
 * POP3 extended response codes in an -ERR ("-ERR [IN-USE] Unable to lock maildrop"). The code in brackets is the
 * machine-readable reason the server gives; the text after it is for people, and "Temporary authentication failure"
 * after [UNAVAILABLE] is a subsystem that is down, not a denial. IMAP: RFC 9051 §7.1 and RFC 5530 §3
 * (https://www.rfc-editor.org/rfc/rfc5530#section-3); POP3: RFC 2449 §8 and RFC 3206 §4.
 */
const MAIL_CODES: ReadonlyMap<string, Semantics> = new Map<string, Semantics>([
  // RFC 5530
  ['UNAVAILABLE', transient('rejected')], // temporary failure because a subsystem is down
  ['AUTHENTICATIONFAILED', permission()],
  ['AUTHORIZATIONFAILED', permission()],
  ['EXPIRED', permission()], // the credentials have expired
  ['PRIVACYREQUIRED', permission()], // not permitted without TLS
  ['CONTACTADMIN', permission()], // the user should contact the administrator
  ['NOPERM', permission()], // the ACL does not permit the operation
  ['INUSE', transient('rejected')], // another session holds the resource
  ['CORRUPTION', invariant()],
  ['CLIENTBUG', validation()],
  ['CANNOT', invariant()], // "violates some invariant of the server and can never succeed"
  ['LIMIT', validation()], // an implementation limit (number of flags, message size…)
  ['OVERQUOTA', permission()], // over quota after the operation: a person must free space or raise it
  ['ALREADYEXISTS', invariant('rejected', dup)],
  ['NONEXISTENT', missingResource()],
  // RFC 9051 §7.1
  ['TRYCREATE', missingResource()], // the target mailbox does not exist (create it first)
  ['PARSE', validation()],
  ['BADCHARSET', validation()],
  // POP3: RFC 2449 §8, RFC 3206 §4
  ['IN-USE', transient('rejected')],
  ['LOGIN-DELAY', transient('rejected')],
  ['SYS/TEMP', transient('rejected')],
  ['SYS/PERM', invariant()],
  ['AUTH', permission()],
]);

/** The response code of an IMAP NO/BAD or a POP3 -ERR, as a meaning, or null for a code not listed. */
export function mailResponseMeaning(code: string): ErrorMeaning | null {
  const known = MAIL_CODES.get(code);
  return known ? meaningOf(known, `mail:${code}`) : null;
}
