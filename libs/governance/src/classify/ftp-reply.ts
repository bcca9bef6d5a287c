import {
  meaningOf,
  missingResource,
  permission,
  transient,
  validation,
  type ErrorMeaning,
  type Semantics,
} from './error-meaning.js';

/**
 * FTP reply codes (RFC 959 §4.2, RFC 2228 for 53x), read only in the ftp dialect or from Python ftplib's
 * error_perm / error_temp, since the same three digits mean other things in SMTP. A negative reply answers
 * one command, which was not carried out — except 426, a transfer aborted part-way.
 */
export function ftpReplyMeaning(code: number): ErrorMeaning | null {
  const semantics = ftpSemantics(code);
  return semantics === null ? null : meaningOf(semantics, `ftp:${code}`);
}

function ftpSemantics(code: number): Semantics | null {
  if (code < 400 || code > 599) return null;
  switch (code) {
    case 426: // connection closed; transfer aborted: an upload may be partial
      return transient('indeterminate');
    case 430: // invalid username or password
    case 530: // not logged in
    case 532: // need account for storing files
    case 534: // request denied for policy reasons (RFC 2228)
    case 535: // failed security check (RFC 2228)
      return permission();
    case 550: // file unavailable: not found, or no access — the text says which
      return missingResource({ generic: true });
    case 552: // exceeded storage allocation
      return transient('rejected', { generic: true });
    case 551: // page type unknown
    case 553: // file name not allowed
      return validation();
    default:
      // 421, 425, 450, 451, 452: try again later; 500–504: the command, its syntax or its parameters.
      return code < 500 ? transient('rejected') : validation({ generic: code === 500 });
  }
}
