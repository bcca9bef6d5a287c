/** What RFC 9110 §9.2 (and the IANA HTTP Method Registry) promise about a method. */
export interface HttpMethodSemantics {
  /** The canonical, upper-case method token. */
  readonly method: string;
  /** Safe (§9.2.1): the client does not request any state change on the origin. */
  readonly safe: boolean;
  /** Idempotent (§9.2.2): the intended effect of N identical requests equals that of one. */
  readonly idempotent: boolean;
  /** Registered in the IANA registry (unknown methods are treated as unsafe, non-idempotent). */
  readonly registered: boolean;
}

// IANA "Hypertext Transfer Protocol (HTTP) Method Registry": [safe, idempotent].
const REGISTRY: Readonly<Record<string, readonly [boolean, boolean]>> = {
  GET: [true, true],
  HEAD: [true, true],
  OPTIONS: [true, true],
  TRACE: [true, true],
  QUERY: [true, true],
  PROPFIND: [true, true],
  REPORT: [true, true],
  SEARCH: [true, true],
  PRI: [true, true],
  PUT: [false, true],
  DELETE: [false, true],
  ACL: [false, true],
  'BASELINE-CONTROL': [false, true],
  BIND: [false, true],
  CHECKIN: [false, true],
  CHECKOUT: [false, true],
  COPY: [false, true],
  LABEL: [false, true],
  LINK: [false, true],
  MERGE: [false, true],
  MKACTIVITY: [false, true],
  MKCALENDAR: [false, true],
  MKCOL: [false, true],
  MKREDIRECTREF: [false, true],
  MKWORKSPACE: [false, true],
  MOVE: [false, true],
  ORDERPATCH: [false, true],
  PROPPATCH: [false, true],
  REBIND: [false, true],
  UNBIND: [false, true],
  UNCHECKOUT: [false, true],
  UNLINK: [false, true],
  UNLOCK: [false, true],
  UPDATE: [false, true],
  UPDATEREDIRECTREF: [false, true],
  'VERSION-CONTROL': [false, true],
  POST: [false, false],
  PATCH: [false, false],
  CONNECT: [false, false],
  LOCK: [false, false],
};

/**
 * Semantics of an HTTP method. Methods are case-sensitive tokens (§9.1), but producers lower-case
 * them often enough that "post" is read as POST rather than as an unknown, unsafe method.
 */
export function httpMethodSemantics(method: string): HttpMethodSemantics {
  // A method already in canonical form (nearly all) needs no trimmed, upper-cased copy.
  const canonical = Object.hasOwn(REGISTRY, method) ? method : method.trim().toUpperCase();
  const known = REGISTRY[canonical];
  if (!known) return { method: canonical, safe: false, idempotent: false, registered: false };
  return { method: canonical, safe: known[0], idempotent: known[1], registered: true };
}
