import { marker, type SecretRule } from '../secret-rule.js';

/**
 * HTTP authentication (RFC 9110 §11, formerly RFC 7235): `credentials = auth-scheme [ 1*SP ( token68 /
 * #auth-param ) ]`, and the scheme is case-insensitive, so "bearer", "BASIC" and "Digest" are all schemes.
 * Three shapes, each with the scheme word kept as written (it says how the caller authenticated, which is
 * evidence, not a secret):
 * - a header or field named Authorization / Proxy-Authorization: the whole value, token68 or parameter list;
 * - a token68 scheme in free text (Bearer, DPoP, Okta's SSWS, Negotiate / NTLM / Kerberos), when what
 *   follows looks like a token rather than a word of prose; Basic when it decodes to `user:password`;
 * - a parameter scheme in free text (Digest, OAuth 1.0, AWS SigV4 `AWS4-HMAC-SHA256 Credential=…,
 *   Signature=…`, Google's and Alibaba's and Tencent's HMAC schemes, HOBA, Mutual, SCRAM, vapid, HTTP
 *   Signatures, GNAP, Rails' `Token token=…`): the whole parameter list.
 */

// RFC 9110 token and quoted-string, and a quoted-string as it reads inside JSON-escaped text (\"…\").
const TOKEN = String.raw`[\w!#$%&*+.^\x60|~-]+`;
const QUOTED = String.raw`"(?:[^"\\\r\n]|\\.)*"`;
const ESCAPED_QUOTED = String.raw`\\"(?:[^"\\\r\n]|\\[^"])*\\"`;
const PARAM_VALUE = String.raw`(?:${ESCAPED_QUOTED}|${QUOTED}|[^\s,"'\\]+)`;
// No whitespace around "=" (RFC 9110 allows it, senders do not write it): with it, the padding of a token68
// ("Basic dXNl…= Basic …") would read as a parameter and swallow the next credential.
const PARAM = String.raw`${TOKEN}=${PARAM_VALUE}`;
const PARAMS = String.raw`${PARAM}(?:\s*,\s*${PARAM})*`;

/** RFC 6750 b64token: 16+ characters, or 8+ with a digit or symbol, so "Bearer authentication" survives. */
const B64TOKEN = String.raw`(?:[A-Za-z0-9\-._~+/]{16,}|(?=[A-Za-z0-9\-._~+/]*[0-9\-._~+/])[A-Za-z0-9\-._~+/]{8,})=*`;

/** Parameter schemes (IANA HTTP Authentication Scheme Registry and the cloud providers' signing schemes). */
const PARAM_SCHEMES = [
  'Digest',
  'OAuth',
  'AWS4-HMAC-SHA256',
  'AWS4-ECDSA-P256-SHA256',
  'GOOG4-HMAC-SHA256',
  'GOOG4-RSA-SHA256',
  'ACS3-HMAC-SHA256',
  'TC3-HMAC-SHA256',
  'HOBA',
  'Mutual',
  'SCRAM-SHA-1',
  'SCRAM-SHA-256',
  'vapid',
  'Signature',
  'GNAP',
  'PrivateToken',
  'Token',
];
const escape = (literal: string): string => literal.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');

/**
 * Basic credentials are base64 of `user-id ":" password` (RFC 7617): the decoded text must be printable
 * and hold the colon, so "Basic usage" and other prose survive.
 */
const decodesToUserPass = (b64: string): boolean => {
  try {
    const decoded = atob(b64);
    return /^[^:\x00-\x1f\x7f]*:[^\x00-\x08\x0e-\x1f\x7f]*$/.test(decoded);
  } catch {
    return false;
  }
};

export const AUTH_SCHEME_RULES: readonly SecretRule[] = [
  {
    kind: 'credentials',
    triggers: ['authorization'],
    pattern: new RegExp(
      String.raw`\b((?:proxy-)?authorization)(\\?["']?\s*[:=]\s*\\?["']?)(?:([A-Za-z][\w.-]*)\s+)?(?:${PARAMS}|[^\s"',;\\]+)`,
      'gi',
    ),
    replace: (_m, header: string, sep: string, scheme: string | undefined) =>
      `${header}${sep}${scheme ? `${scheme} ` : ''}${marker('credentials')}`,
  },
  {
    kind: 'bearer_token',
    triggers: ['bearer', 'dpop', 'ssws'],
    pattern: new RegExp(String.raw`\b(bearer|dpop|ssws)\s+${B64TOKEN}`, 'gi'),
    replace: (_m, scheme: string) => `${scheme} ${marker('bearer_token')}`,
  },
  {
    // SPNEGO / NTLM blobs are base64 of a binary handshake; 16+ characters so prose survives.
    kind: 'negotiate_token',
    triggers: ['negotiate', 'ntlm', 'kerberos'],
    pattern: /\b(negotiate|ntlm|kerberos)\s+[A-Za-z0-9+/]{16,}={0,2}(?![A-Za-z0-9+/=])/gi,
    replace: (_m, scheme: string) => `${scheme} ${marker('negotiate_token')}`,
  },
  {
    kind: 'basic_auth',
    triggers: ['basic'],
    pattern: /\b(basic)\s+([A-Za-z0-9+/]{4,}={0,2})(?![A-Za-z0-9+/=])/gi,
    replace: (m, scheme: string, b64: string) => (decodesToUserPass(b64) ? `${scheme} ${marker('basic_auth')}` : m),
  },
  {
    kind: 'auth_params',
    triggers: PARAM_SCHEMES.map((s) => s.toLowerCase()),
    pattern: new RegExp(String.raw`(?<![\w-])(${PARAM_SCHEMES.map(escape).join('|')})\s+${PARAMS}`, 'gi'),
    replace: (_m, scheme: string) => `${scheme} ${marker('auth_params')}`,
  },
];
