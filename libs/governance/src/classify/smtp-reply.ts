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
 * SMTP replies: the reply code of RFC 5321 §4.2 and the enhanced status code of RFC 3463 (registry:
 * https://www.iana.org/assignments/smtp-enhanced-status-codes). A negative reply answers one command,
 * which the server did not carry out, so the effect is always `rejected`; what was not accepted was not
 * delivered. 4yz is a transient negative completion (retry later); 5yz is permanent, and the enhanced
 * code's subject says why: addressing, mailbox, mail system, routing, protocol, content or policy.
 */
export interface SmtpReply {
  readonly code: number;
  /** "5.1.1", when the server sent one; its class always equals the reply's first digit (RFC 3463 §2). */
  readonly enhanced: string | null;
}

const ENHANCED = /^([245])\.(\d{1,3})\.(\d{1,3})$/;

/** The meaning of a negative SMTP reply; null for a positive one (2yz, 3yz) or a malformed code. */
export function smtpReplyMeaning({ code, enhanced }: SmtpReply): ErrorMeaning | null {
  if (code < 400 || code > 599) return null;
  const parts = enhanced === null ? null : ENHANCED.exec(enhanced);
  if (parts && Number(parts[1]) === Math.floor(code / 100)) {
    return meaningOf(enhancedSemantics(Number(parts[1]), Number(parts[2]), Number(parts[3])), `smtp:${enhanced}`);
  }
  return meaningOf(replySemantics(code), `smtp:${code}`);
}

/** RFC 5321 §4.2.2–4.2.3 reply codes alone (servers without ENHANCEDSTATUSCODES). */
function replySemantics(code: number): Semantics {
  if (code < 500) return transient('rejected'); // 421, 450, 451, 452, 455: try again later
  switch (code) {
    case 530: // authentication required (RFC 4954)
    case 534: // authentication mechanism too weak
    case 535: // authentication credentials invalid
    case 538: // encryption required for the mechanism
      return permission();
    case 550: // mailbox unavailable: not found, no access, or refused for policy — the enhanced code would say
    case 551: // user not local
    case 556: // domain does not accept mail (RFC 7504)
      return missingResource({ generic: code === 550 });
    // Exceeded storage allocation; RFC 5321 §4.5.3.1.10 asks clients to treat it as temporary.
    case 552:
      return transient('rejected', { generic: true });
    case 553: // mailbox name not allowed (syntax)
      return validation();
    case 554: // transaction failed: most often a policy refusal (spam, reputation)
      return permission({ generic: true });
    default: // 500–504, 555: the command, its syntax or its parameters
      return validation({ generic: code === 500 });
  }
}

/** RFC 3463 §3: class.subject.detail. */
function enhancedSemantics(cls: number, subject: number, detail: number): Semantics {
  if (cls === 4) return transient('rejected'); // persistent transient failure: the same message may succeed later
  switch (subject) {
    case 1: // addressing: syntax errors are the arguments; the rest name no mailbox or system that exists
      return detail === 3 || detail === 4 || detail === 7 || detail === 8 ? validation() : missingResource();
    case 2: // mailbox status
      if (detail === 2) return transient('rejected'); // mailbox full
      if (detail === 3) return validation(); // message length exceeds the administrative limit
      if (detail === 1) return permission(); // mailbox disabled, not accepting messages
      return detail === 4 ? invariant() : missingResource({ generic: true });
    case 3: // mail system status
      if (detail === 4 || detail === 3) return validation(); // message too big; feature not supported
      if (detail === 5) return invariant(); // system incorrectly configured
      return transient('rejected');
    case 4: // network and routing
      if (detail === 4) return missingResource(); // unable to route
      if (detail === 6) return invariant(); // routing loop detected
      return transient('rejected');
    case 5: // mail delivery protocol: the command or its arguments
    case 6: // message content or media
      return validation();
    case 7: // security or policy: not authorised, credentials invalid, SPF/DKIM/DMARC refused
      return permission();
    default:
      return validation({ generic: true });
  }
}
